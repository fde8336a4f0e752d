/** One server-sent event, as the SSE specification (WHATWG HTML §9.2) defines its fields. */
export interface SseEvent {
  readonly event: string;
  readonly data: string;
  readonly id?: string;
  readonly retry?: number;
}

export type SseParseEvent = { kind: 'event'; event: SseEvent } | { kind: 'oversized'; bytes: number };

/**
 * Incremental SSE parser. Feeds on decoded text chunks and yields complete events; an event whose data
 * grows beyond `maxEventBytes` is dropped (reported once) so a server cannot grow our memory.
 */
export class SseParser {
  private buffer = '';
  private data: string[] = [];
  private dataBytes = 0;
  private eventType = '';
  private id: string | undefined;
  private retry: number | undefined;
  private oversized = false;

  constructor(private readonly maxEventBytes: number) {}

  push(text: string): SseParseEvent[] {
    this.buffer += text;
    const out: SseParseEvent[] = [];
    let newline: number;
    while ((newline = this.buffer.search(/\r\n|\r|\n/)) !== -1) {
      const line = this.buffer.slice(0, newline);
      const width = this.buffer.startsWith('\r\n', newline) ? 2 : 1;
      this.buffer = this.buffer.slice(newline + width);
      const event = this.line(line);
      if (event) out.push(event);
    }
    if (this.buffer.length > this.maxEventBytes) {
      // A single line longer than the limit: drop it now rather than buffering it whole.
      this.buffer = '';
      this.oversized = true;
    }
    return out;
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

  private dispatch(): SseParseEvent | undefined {
    const result: SseParseEvent | undefined = this.oversized
      ? { kind: 'oversized', bytes: this.dataBytes }
      : this.data.length > 0
        ? { kind: 'event', event: { event: this.eventType || 'message', data: this.data.join('\n'), id: this.id, retry: this.retry } }
        : undefined;
    this.data = [];
    this.dataBytes = 0;
    this.eventType = '';
    this.oversized = false;
    return result;
  }
}
