import { JsonDepthGauge } from '@toolmesh/protocol';

/** One server-sent event, as the SSE specification (WHATWG HTML §9.2) defines its fields. */
export interface SseEvent {
  readonly event: string;
  readonly data: string;
  readonly id?: string;
  readonly retry?: number;
}

export type SseParseEvent =
  { kind: 'event'; event: SseEvent } | { kind: 'oversized'; bytes: number } | { kind: 'too_deep'; maxDepth: number };

/**
 * Incremental SSE parser, shared by the MCP client transport and the agent's LLM completion reader. Feeds
 * on decoded text chunks, which may end anywhere (inside a line, or between the `\r` and `\n` of a CRLF),
 * and yields complete events. An event whose data grows beyond `maxEventBytes` is dropped (reported once)
 * so a server cannot grow our memory. Given `maxDepth`, an event whose data, read as JSON text, nests
 * deeper is dropped too (`too_deep`), measured line by line as the lines come, before anyone parses it.
 */
export class SseParser {
  /** The pieces of a line whose end has not come yet, and their length. */
  private pending: string[] = [];
  private pendingChars = 0;
  /** The last chunk ended in `\r`: its line is ended, by that `\r` alone or with the next chunk's `\n`. */
  private crHeld = false;
  private atStart = true;
  /** The rest of a line too long to buffer is dropped up to its line end, never read as a line of its own. */
  private skippingLine = false;
  private data: string[] = [];
  private dataBytes = 0;
  private eventType = '';
  private id: string | undefined;
  private retry: number | undefined;
  private oversized = false;
  /** The current event's data measured so far (only with `maxDepth`). */
  private depth: JsonDepthGauge | undefined;
  private tooDeep = false;

  constructor(
    private readonly maxEventBytes: number,
    private readonly maxDepth?: number,
  ) {}

  push(text: string): SseParseEvent[] {
    if (this.atStart && text !== '') {
      // The specification lets a stream begin with a byte order mark; a decoder that keeps it (Node's
      // `setEncoding('utf8')` does) hands it on as U+FEFF.
      this.atStart = false;
      if (text.startsWith('\uFEFF')) text = text.slice(1);
    }
    const out: SseParseEvent[] = [];
    if (text === '') return out;
    let start = 0;
    if (this.crHeld) {
      // The `\r` that ended the last chunk ends its line, with this chunk's first `\n` when it has one.
      this.crHeld = false;
      this.take(this.pendingLine(''), out);
      if (text.startsWith('\n')) start = 1;
    }
    // Only the new text is searched for line ends: a long line arriving in many chunks is read once, not
    // once per chunk (which took seconds for one 4 MB event).
    const lineEnd = /\r\n|\r|\n/g;
    lineEnd.lastIndex = start;
    for (let end = lineEnd.exec(text); end !== null; end = lineEnd.exec(text)) {
      if (end[0] === '\r' && end.index === text.length - 1) {
        // A `\r` that ends the chunk may be the first half of a `\r\n`: read as a line end of its own, the
        // `\n` at the start of the next chunk would be a blank line and dispatch the event too early.
        this.crHeld = true;
        this.hold(text.slice(start, end.index));
        return out;
      }
      this.take(this.pendingLine(text.slice(start, end.index)), out);
      start = end.index + end[0].length;
    }
    this.hold(text.slice(start));
    return out;
  }

  /**
   * The end of the stream. The specification drops an event whose closing blank line never came; a caller
   * reading a stream that may simply stop after its last `data:` line (some LLM servers do) calls this to
   * count it. The MCP transport does not.
   */
  end(): SseParseEvent[] {
    const out: SseParseEvent[] = [];
    if (this.pending.length > 0 || this.crHeld) this.take(this.pendingLine(''), out);
    this.crHeld = false;
    this.take('', out);
    return out;
  }

  /** The start of a line whose end has not come yet: kept, unless the line is longer than the limit. */
  private hold(piece: string): void {
    if (piece === '' || this.skippingLine) return;
    this.pending.push(piece);
    this.pendingChars += piece.length;
    if (this.pendingChars <= this.maxEventBytes) return;
    // A single line longer than the limit: dropped now rather than buffered whole, up to its end.
    this.pending = [];
    this.pendingChars = 0;
    this.skippingLine = true;
    this.oversized = true;
  }

  /** The line that `last` ends: the pieces held for it, then `last`. */
  private pendingLine(last: string): string {
    if (this.pending.length === 0) return last;
    this.pending.push(last);
    const line = this.pending.join('');
    this.pending = [];
    this.pendingChars = 0;
    return line;
  }

  private take(line: string, out: SseParseEvent[]): void {
    if (this.skippingLine) {
      this.skippingLine = false;
      return;
    }
    const event = this.line(line);
    if (event) out.push(event);
  }

  private line(line: string): SseParseEvent | undefined {
    if (line === '') return this.dispatch();
    if (line.startsWith(':')) return undefined; // comment / keep-alive
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    switch (field) {
      case 'data':
        this.dataBytes += Buffer.byteLength(value) + 1;
        if (this.dataBytes > this.maxEventBytes) this.oversized = true;
        else if (this.tooDeep || !this.withinDepth(value)) this.tooDeep = true;
        else this.data.push(value);
        break;
      case 'event':
        this.eventType = value;
        break;
      case 'id':
        if (!value.includes('\0')) this.id = value;
        break;
      case 'retry':
        if (/^\d+$/.test(value)) this.retry = Number(value);
        break;
    }
    return undefined;
  }

  /** Whether the event's data is still within `maxDepth` with `line` (a line end inside JSON text is whitespace). */
  private withinDepth(line: string): boolean {
    if (this.maxDepth === undefined) return true;
    if ((this.depth ??= new JsonDepthGauge(this.maxDepth)).feedText(line)) return true;
    this.data = []; // what came before is let go at once
    return false;
  }

  private dispatch(): SseParseEvent | undefined {
    const result: SseParseEvent | undefined = this.oversized
      ? { kind: 'oversized', bytes: this.dataBytes }
      : this.tooDeep
        ? { kind: 'too_deep', maxDepth: this.maxDepth as number }
        : this.data.length > 0
          ? { kind: 'event', event: { event: this.eventType || 'message', data: this.data.join('\n'), id: this.id, retry: this.retry } }
          : undefined;
    this.data = [];
    this.dataBytes = 0;
    this.eventType = '';
    this.oversized = false;
    this.depth = undefined;
    this.tooDeep = false;
    return result;
  }
}
