import type { Writable } from 'node:stream';
import TransportStream from 'winston-transport';

/** winston keeps the formatted line under this symbol (triple-beam's MESSAGE). */
export const MESSAGE = Symbol.for('message');

/**
 * A winston transport that writes the lines logged during one turn of the event loop in a single write.
 * Under load a gateway logs several lines per request; one write call each was a third of its CPU time
 * in the benchmark (docs/adr/0005). Lines are flushed at the latest one tick later, and on close.
 */
export class BatchingStreamTransport extends TransportStream {
  private pending = '';
  private scheduled = false;

  constructor(private readonly stream: Writable) {
    super();
  }

  override log(info: Record<string | symbol, unknown>, callback: () => void): void {
    this.pending += `${String(info[MESSAGE])}\n`;
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(this.flush);
    }
    callback();
  }

  override close(): void {
    this.flush();
  }

  readonly flush = (): void => {
    this.scheduled = false;
    if (this.pending === '') return;
    const lines = this.pending;
    this.pending = '';
    this.stream.write(lines);
  };
}
