/**
 * Splits a Server-Sent Events byte stream (already decoded to text) into the data of its events. Chunks
 * may end anywhere, even inside a line or a `\r\n`; comments (`: ...`) and fields other than `data` are
 * skipped; an event's several `data:` lines are joined with `\n`, as the SSE specification says.
 */
export class SseParser {
  private buffer = '';
  private data: string[] = [];

  /** Feeds a piece of the stream; returns the data of every event it completed. */
  push(text: string): string[] {
    this.buffer += text;
    const events: string[] = [];
    let end: RegExpExecArray | null;
    const lineEnd = /\r\n|\r|\n/g;
    let start = 0;
    while ((end = lineEnd.exec(this.buffer)) !== null) {
      // A lone `\r` at the very end may be the first half of `\r\n`: wait for the next chunk.
      if (end[0] === '\r' && end.index === this.buffer.length - 1) break;
      this.line(this.buffer.slice(start, end.index), events);
      start = end.index + end[0].length;
    }
    this.buffer = this.buffer.slice(start);
    return events;
  }

  /** The end of the stream: an event whose closing blank line never came still counts. */
  end(): string[] {
    const events: string[] = [];
    if (this.buffer.length > 0) this.line(this.buffer, events);
    this.buffer = '';
    this.line('', events);
    return events;
  }

  private line(line: string, events: string[]): void {
    if (line === '') {
      if (this.data.length > 0) events.push(this.data.join('\n'));
      this.data = [];
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    if (field !== 'data') return;
    const value = colon === -1 ? '' : line.slice(colon + 1);
    this.data.push(value.startsWith(' ') ? value.slice(1) : value);
  }
}
