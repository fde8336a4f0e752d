import { JsonDepthGauge } from '../jsonrpc/json-depth-gauge';

/** The limit a body broke: its size, or its nesting. */
export type JsonBodyLimit = 'bytes' | 'depth';

/**
 * A JSON body read chunk by chunk within a size and a nesting depth, so that a peer's reply too large or
 * too deep is refused as it arrives, before it is buffered whole and parsed (parsing 4 MB of `[[[[` takes
 * a second of CPU and hundreds of MB). The depth is measured only once the body is long enough to exceed
 * it (each level takes two brackets), so small bodies cost nothing more than their size's sum.
 */
export class BoundedJsonBody {
  private readonly chunks: Buffer[] = [];
  private size = 0;
  private gauge: JsonDepthGauge | undefined;

  constructor(
    readonly maxBytes: number,
    readonly maxDepth: number,
  ) {}

  /** The bytes taken so far, the chunk that broke a limit included. */
  get bytes(): number {
    return this.size;
  }

  /** Takes the next chunk: the limit it broke, else undefined. After a break, what was kept is let go. */
  push(chunk: Buffer): JsonBodyLimit | undefined {
    this.size += chunk.length;
    if (this.size > this.maxBytes) return this.broke('bytes');
    this.chunks.push(chunk);
    return this.withinDepth(chunk) ? undefined : this.broke('depth');
  }

  /** The body taken, as text. */
  text(): string {
    const body = this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks, this.size);
    return body.toString('utf8');
  }

  /** From the first chunk that makes the body long enough to be too deep, every chunk is measured. */
  private withinDepth(chunk: Buffer): boolean {
    if (this.gauge !== undefined) return this.gauge.feed(chunk);
    if (this.size <= 2 * this.maxDepth) return true;
    const gauge = (this.gauge = new JsonDepthGauge(this.maxDepth));
    return this.chunks.every((earlier) => gauge.feed(earlier));
  }

  private broke(limit: JsonBodyLimit): JsonBodyLimit {
    this.chunks.length = 0;
    return limit;
  }
}
