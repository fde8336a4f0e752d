/**
 * Splits a byte stream into newline-delimited lines (the MCP stdio framing), never holding more than
 * `maxLineBytes` of one line: a longer line is dropped up to its newline and reported once, so a server
 * that writes an endless line cannot grow our memory.
 */
export type SplitEvent = { kind: 'line'; line: Buffer } | { kind: 'oversized'; bytes: number };

export class LineSplitter {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** Bytes of the current line seen while discarding it; `undefined` when not discarding. */
  private discarded: number | undefined;

  constructor(private readonly maxLineBytes: number) {}

  push(chunk: Buffer): SplitEvent[] {
    const events: SplitEvent[] = [];
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(0x0a, start);
      const end = newline === -1 ? chunk.length : newline;
      this.take(chunk.subarray(start, end));
      if (newline === -1) break;
      const event = this.finishLine();
      if (event) events.push(event);
      start = newline + 1;
    }
    return events;
  }

  private take(piece: Buffer): void {
    if (this.discarded !== undefined) {
      this.discarded += piece.length;
      return;
    }
    if (this.pendingBytes + piece.length > this.maxLineBytes) {
      this.discarded = this.pendingBytes + piece.length;
      this.pending = [];
      this.pendingBytes = 0;
      return;
    }
    if (piece.length > 0) {
      this.pending.push(piece);
      this.pendingBytes += piece.length;
    }
  }

  private finishLine(): SplitEvent | undefined {
    if (this.discarded !== undefined) {
      const bytes = this.discarded;
      this.discarded = undefined;
      return { kind: 'oversized', bytes };
    }
    const line = Buffer.concat(this.pending, this.pendingBytes);
    this.pending = [];
    this.pendingBytes = 0;
    // Tolerate CRLF and blank keep-alive lines, which some servers write.
    const trimmed = line.length > 0 && line[line.length - 1] === 0x0d ? line.subarray(0, -1) : line;
    return trimmed.length === 0 ? undefined : { kind: 'line', line: trimmed };
  }
}
