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

const DATA_FIELD = 'data:';

/**
 * Incremental SSE parser, shared by the MCP client transport and the agent's LLM completion reader. Feeds
 * on decoded text chunks, which may end anywhere (inside a line, or between the `\r` and `\n` of a CRLF),
 * and yields complete events. An event whose data grows beyond `maxEventBytes` is dropped (reported once)
 * so a server cannot grow our memory. Given `maxDepth`, an event whose data, read as JSON text, nests
 * deeper is dropped too: measured as its `data:` lines arrive, piece by piece, it is reported (`too_deep`)
 * at the first character past the limit, and the rest of it is skipped unread.
 */
export class SseParser {
  /** The pieces of a line whose end has not come yet, and their length. */
  private pending: string[] = [];
  private pendingChars = 0;
  /** Of the line being held: whether it is a `data:` line (unknown until five characters came), and how much of it was measured. */
  private pendingIsData: boolean | undefined;
  private measuredChars = 0;
  /** The last chunk ended in `\r`: its line is ended, by that `\r` alone or with the next chunk's `\n`. */
  private crHeld = false;
  private atStart = true;
  /** The rest of a line too long to buffer, or too deep, is dropped up to its line end, never read as a line of its own. */
  private skippingLine = false;
  private data: string[] = [];
  private dataBytes = 0;
  private eventType = '';
  private id: string | undefined;
  private retry: number | undefined;
  private oversized = false;
  /** The current event's data measured so far (only with `maxDepth`), and whether it went too deep (then reported already). */
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
        this.hold(text.slice(start, end.index), out);
        return out;
      }
      this.take(this.pendingLine(text.slice(start, end.index)), out);
      start = end.index + end[0].length;
    }
    this.hold(text.slice(start), out);
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

  /** The start of a line whose end has not come yet: kept, unless the line is longer than the limit or too deep. */
  private hold(piece: string, out: SseParseEvent[]): void {
    if (piece === '' || this.skippingLine) return;
    this.pending.push(piece);
    this.pendingChars += piece.length;
    if (this.pendingChars > this.maxEventBytes) {
      // A single line longer than the limit: dropped now rather than buffered whole, up to its end.
      this.skipLine();
      this.oversized = true;
      return;
    }
    const unmeasured = this.unmeasuredData(piece);
    if (unmeasured !== undefined && !this.withinDepth(unmeasured, out)) this.skipLine();
  }

  /** The part of a held `data:` line that the depth gauge has not read yet (undefined: none, or not a data line). */
  private unmeasuredData(piece: string): string | undefined {
    if (this.maxDepth === undefined || this.oversized || this.tooDeep) return undefined;
    if (this.pendingIsData === undefined) {
      if (this.pendingChars < DATA_FIELD.length) return undefined;
      const held = this.pending.length === 1 ? this.pending[0] : this.pending.join('');
      this.pending = [held];
      this.pendingIsData = held.startsWith(DATA_FIELD);
      this.measuredChars = this.pendingChars;
      return this.pendingIsData ? held.slice(DATA_FIELD.length) : undefined;
    }
    this.measuredChars = this.pendingChars;
    return this.pendingIsData ? piece : undefined;
  }

  private skipLine(): void {
    this.pending = [];
    this.pendingChars = 0;
    this.skippingLine = true;
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
    const skipped = this.skippingLine;
    const measured = this.measuredChars;
    this.skippingLine = false;
    this.pendingIsData = undefined;
    this.measuredChars = 0;
    if (!skipped) this.line(line, measured, out);
  }

  /** One line; `measured`, how many of its characters the depth gauge read while it was held. */
  private line(line: string, measured: number, out: SseParseEvent[]): void {
    if (line === '') return this.dispatch(out);
    if (line.startsWith(':')) return; // comment / keep-alive
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    switch (field) {
      case 'data':
        if (this.tooDeep) break;
        this.dataBytes += Buffer.byteLength(value) + 1;
        if (this.dataBytes > this.maxEventBytes) this.oversized = true;
        else if (this.maxDepth === undefined || this.oversized || this.withinDepth(line.slice(Math.max(colon + 1, measured)), out))
          this.data.push(value);
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
  }

  /**
   * Whether the event's data is still within `maxDepth` with `text` (a line end inside JSON text is
   * whitespace). Past it, the event is reported at once and what came of it is let go.
   */
  private withinDepth(text: string, out: SseParseEvent[]): boolean {
    const maxDepth = this.maxDepth as number;
    if ((this.depth ??= new JsonDepthGauge(maxDepth)).feedText(text)) return true;
    this.tooDeep = true;
    this.data = [];
    out.push({ kind: 'too_deep', maxDepth });
    return false;
  }

  private dispatch(out: SseParseEvent[]): void {
    // An event too deep was reported when it went too deep, whatever else it did after.
    if (this.oversized && !this.tooDeep) out.push({ kind: 'oversized', bytes: this.dataBytes });
    else if (!this.tooDeep && this.data.length > 0)
      out.push({
        kind: 'event',
        event: { event: this.eventType || 'message', data: this.data.join('\n'), id: this.id, retry: this.retry },
      });
    this.data = [];
    this.dataBytes = 0;
    this.eventType = '';
    this.oversized = false;
    this.depth = undefined;
    this.tooDeep = false;
  }
}
