/**
 * Keeps the last `capacity` bytes written to it: a server's stderr is kept for error messages without
 * letting a chatty server grow our memory.
 */
export class RingBuffer {
  private chunks: Buffer[] = [];
  private size = 0;
  private dropped = 0;

  constructor(private readonly capacity: number) {}

  write(chunk: Buffer): void {
    if (this.capacity <= 0) return;
    const piece = chunk.length > this.capacity ? chunk.subarray(chunk.length - this.capacity) : chunk;
    this.dropped += chunk.length - piece.length;
    this.chunks.push(Buffer.from(piece)); // copied: stream chunks may be pooled
    this.size += piece.length;
    while (this.size > this.capacity) {
      const head = this.chunks[0];
      const excess = this.size - this.capacity;
      if (head.length <= excess) {
        this.chunks.shift();
        this.size -= head.length;
        this.dropped += head.length;
      } else {
        this.chunks[0] = head.subarray(excess);
        this.size -= excess;
        this.dropped += excess;
      }
    }
  }

  /** The kept text; starts with a marker when older output was dropped. */
  text(): string {
    const kept = Buffer.concat(this.chunks, this.size).toString('utf8');
    return this.dropped > 0 ? `[${this.dropped} earlier bytes dropped]\n${kept}` : kept;
  }

  get byteLength(): number {
    return this.size;
  }
}
