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
  private buffer = '';
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
    this.buffer += text;
    const out: SseParseEvent[] = [];
    const lineEnd = /\r\n|\r|\n/g;
    let start = 0;
    for (let end = lineEnd.exec(this.buffer); end !== null; end = lineEnd.exec(this.buffer)) {
      // A `\r` that ends the chunk may be the first half of a `\r\n`: read as a line end of its own, the
      // `\n` at the start of the next chunk would be a blank line and dispatch the event too early.
      if (end[0] === '\r' && end.index === this.buffer.length - 1) break;
      this.take(this.buffer.slice(start, end.index), out);
      start = end.index + end[0].length;
    }
    this.buffer = this.buffer.slice(start);
    if (this.buffer.length > this.maxEventBytes) {
      // A single line longer than the limit: drop it now rather than buffering it whole. A pending `\r`
      // stays, as it ends that line.
      this.buffer = this.buffer.endsWith('\r') ? '\r' : '';
      this.skippingLine = true;
      this.oversized = true;
    }
    return out;
  }

  /**
   * The end of the stream. The specification drops an event whose closing blank line never came; a caller
   * reading a stream that may simply stop after its last `data:` line (some LLM servers do) calls this to
   * count it. The MCP transport does not.
   */
  end(): SseParseEvent[] {
    const out: SseParseEvent[] = [];
    if (this.buffer !== '') this.take(this.buffer.endsWith('\r') ? this.buffer.slice(0, -1) : this.buffer, out);
    this.buffer = '';
    this.take('', out);
    return out;
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
