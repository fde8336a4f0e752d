import type { Writable } from 'node:stream';

import TransportStream from 'winston-transport';

/** winston keeps the formatted line under this symbol (triple-beam's MESSAGE). */
export const MESSAGE = Symbol.for('message');

export interface BatchingOptions {
  /** Longest a line waits before it is written (ms). */
  readonly flushMillis?: number;
  /** Pending bytes that are written at once, without waiting. */
  readonly maxPendingBytes?: number;
  /** Told once when the stream fails (its reader went away: EPIPE); one line on standard error by default. */
  readonly onStreamError?: (error: Error) => void;
}

/** Defaults: a line is on its way within 20 ms; a burst is written in pieces of about 64 KB. */
const DEFAULT_FLUSH_MILLIS = 20;
const DEFAULT_MAX_PENDING_BYTES = 65_536;
/** UTF-8 takes at most 3 bytes per UTF-16 code unit. */
const MAX_BYTES_PER_CHAR = 3;
const NEWLINE = 0x0a;
const MIN_HEADROOM_BYTES = 4096;

/**
 * A winston transport that gathers lines and writes them in one call, at the latest `flushMillis` after
 * the first of them, at once when `maxPendingBytes` are pending, and on `flush()` / `close()`. A gateway
 * logs three lines per call; a write each, or even one per event-loop turn, was the largest share of its
 * CPU per call that logging costs (docs/adr/0005-gateway-hot-path.md). Each line is encoded into the
 * batch's bytes as it comes: turning one long concatenation of lines into bytes at write time cost twice
 * as much (ADR 0005, eighth round). The owner of the process calls `flush()` on exit, so no line is lost
 * to `process.exit`. A stream that fails (the log collector reading a gateway's standard output went away)
 * does not take the process with it: the failure is told once and the lines that follow are dropped, since
 * a gateway that still serves its callers is worth more than one that dies for want of its log.
 */
export class BatchingStreamTransport extends TransportStream {
  private batch: Buffer;
  private used = 0;
  private timer: NodeJS.Timeout | undefined;
  private readonly flushMillis: number;
  private readonly maxPendingBytes: number;
  /** Set when the stream failed: nothing more is written to it. */
  private failed = false;

  constructor(
    private readonly stream: Writable,
    options: BatchingOptions = {},
  ) {
    super();
    this.flushMillis = options.flushMillis ?? DEFAULT_FLUSH_MILLIS;
    this.maxPendingBytes = options.maxPendingBytes ?? DEFAULT_MAX_PENDING_BYTES;
    this.batch = this.newBatch();
    const onStreamError = options.onStreamError ?? reportOnStandardError;
    stream.on('error', (error: Error) => {
      if (this.failed) return;
      this.failed = true;
      clearTimeout(this.timer);
      onStreamError(error);
    });
  }

  /** As a winston transport: the line formatted under `MESSAGE`. */
  override log(info: Record<string | symbol, unknown>, callback: () => void): void {
    this.append(String(info[MESSAGE]));
    callback();
  }

  /** One formatted line, without its newline. */
  append(line: string): void {
    if (this.failed) return;
    const mostBytes = line.length * MAX_BYTES_PER_CHAR + 1;
    if (mostBytes > this.batch.length - this.used) {
      this.flush();
      if (mostBytes > this.batch.length) {
        this.stream.write(`${line}\n`); // longer than a whole batch: on its own
        return;
      }
    }
    this.used += this.batch.write(line, this.used, 'utf8');
    this.batch[this.used++] = NEWLINE;
    if (this.used >= this.maxPendingBytes) this.flush();
    else this.timer ??= setTimeout(this.flush, this.flushMillis);
  }

  override close(): void {
    this.flush();
  }

  readonly flush = (): void => {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.used === 0 || this.failed) return;
    const lines = this.batch.subarray(0, this.used);
    // The stream may hold the bytes until they are written: the next lines go into a new batch.
    this.batch = this.newBatch();
    this.used = 0;
    this.stream.write(lines);
  };

  /** Room for the pending limit and one more long line, so a batch is rarely cut short. */
  private newBatch(): Buffer {
    return Buffer.allocUnsafe(this.maxPendingBytes + Math.max(MIN_HEADROOM_BYTES, Math.ceil(this.maxPendingBytes / 4)));
  }
}

function reportOnStandardError(error: Error): void {
  const code = (error as NodeJS.ErrnoException).code ?? error.message;
  process.stderr.write(`the log stream failed (${code}): its lines are dropped from now on; the process goes on serving\n`);
}
