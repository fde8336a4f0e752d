import type { Writable } from 'node:stream';
import TransportStream from 'winston-transport';

/** winston keeps the formatted line under this symbol (triple-beam's MESSAGE). */
export const MESSAGE = Symbol.for('message');

export interface BatchingOptions {
  /** Longest a line waits before it is written (ms). */
  readonly flushMillis?: number;
  /** Pending characters that are written at once, without waiting. */
  readonly maxPendingChars?: number;
}

/** Defaults: a line is on its way within 20 ms; a burst is written in pieces of about 64 KB. */
const DEFAULT_FLUSH_MILLIS = 20;
const DEFAULT_MAX_PENDING_CHARS = 65_536;

/**
 * A winston transport that gathers lines and writes them in one call, at the latest `flushMillis` after
 * the first of them, at once when `maxPendingChars` are pending, and on `flush()` / `close()`. A gateway
 * logs three lines per call; a write each, or even one per event-loop turn, was the largest share of its
 * CPU per call that logging costs (docs/adr/0005-gateway-hot-path.md). The owner of the process calls
 * `flush()` on exit, so no line is lost to `process.exit`.
 */
export class BatchingStreamTransport extends TransportStream {
  private pending = '';
  private timer: NodeJS.Timeout | undefined;
  private readonly flushMillis: number;
  private readonly maxPendingChars: number;

  constructor(
    private readonly stream: Writable,
    options: BatchingOptions = {},
  ) {
    super();
    this.flushMillis = options.flushMillis ?? DEFAULT_FLUSH_MILLIS;
    this.maxPendingChars = options.maxPendingChars ?? DEFAULT_MAX_PENDING_CHARS;
  }

  /** As a winston transport: the line formatted under `MESSAGE`. */
  override log(info: Record<string | symbol, unknown>, callback: () => void): void {
    this.append(String(info[MESSAGE]));
    callback();
  }

  /** One formatted line, without its newline. */
  append(line: string): void {
    this.pending += `${line}\n`;
    if (this.pending.length >= this.maxPendingChars) this.flush();
    else this.timer ??= setTimeout(this.flush, this.flushMillis);
  }

  override close(): void {
    this.flush();
  }

  readonly flush = (): void => {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending === '') return;
    const lines = this.pending;
    this.pending = '';
    this.stream.write(lines);
  };
}
