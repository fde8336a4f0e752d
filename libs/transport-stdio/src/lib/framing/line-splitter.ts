/**
 * Splits a byte stream into newline-delimited lines (the MCP stdio framing), never holding more than
 * `maxLineBytes` of one line: a longer line is dropped up to its newline and reported once, so a server
 * that writes an endless line cannot grow our memory.
 */
export type SplitEvent =
  | { kind: 'line'; line: Buffer }
  /** `head` and `tail`: the first and last `edgeBytes` of the dropped line, to tell what it was. */
  | { kind: 'oversized'; bytes: number; head: string; tail: string };

export class LineSplitter {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** Bytes of the current line seen while discarding it; `undefined` when not discarding. */
  private discarded: number | undefined;
  private head = Buffer.alloc(0);
  private tail = Buffer.alloc(0);

  constructor(
    private readonly maxLineBytes: number,
    private readonly edgeBytes = 256,
  ) {}

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
      this.keepTail(piece);
      return;
    }
    if (this.pendingBytes + piece.length > this.maxLineBytes) {
      this.discarded = this.pendingBytes + piece.length;
      const line = Buffer.concat([...this.pending, piece]);
      this.head = Buffer.from(line.subarray(0, this.edgeBytes));
      this.tail = Buffer.alloc(0);
      this.keepTail(line);
      this.pending = [];
      this.pendingBytes = 0;
      return;
    }
    if (piece.length > 0) {
      this.pending.push(piece);
      this.pendingBytes += piece.length;
    }
  }

  private keepTail(piece: Buffer): void {
    const joined = piece.length >= this.edgeBytes ? piece : Buffer.concat([this.tail, piece]);
    this.tail = Buffer.from(joined.subarray(Math.max(0, joined.length - this.edgeBytes)));
  }

  private finishLine(): SplitEvent | undefined {
    if (this.discarded !== undefined) {
      const bytes = this.discarded;
      this.discarded = undefined;
      return { kind: 'oversized', bytes, head: this.head.toString('utf8'), tail: this.tail.toString('utf8') };
    }
    const line = Buffer.concat(this.pending, this.pendingBytes);
    this.pending = [];
    this.pendingBytes = 0;
    // Tolerate CRLF and blank keep-alive lines, which some servers write.
    const trimmed = line.length > 0 && line[line.length - 1] === 0x0d ? line.subarray(0, -1) : line;
    return trimmed.length === 0 ? undefined : { kind: 'line', line: trimmed };
  }
}
