import { Cancellation } from '@toolmesh/protocol';

/**
 * How long a call to an MCP server may still take. Most calls set it once; a call whose server asks our
 * caller for input (issue 28) stops it while the caller is being asked and starts it again, from the
 * retry's own deadline, when the answer comes. When it runs out, `expired` rejects and `cancellation`
 * aborts, which cancels the server's call: the call's own cancellation, when it has one, so that a call
 * listens to one, not two combined.
 */
export class CallDeadline {
  private expiry: Promise<never> | undefined;
  private fire: (() => void) | undefined;
  private out = false;
  private timer: NodeJS.Timeout | undefined;
  /** The length of the last wait started: what a timeout's message says. */
  private millis = 0;

  constructor(readonly cancellation = new Cancellation()) {}

  /**
   * Rejects when it runs out. Made for whoever races it (a listing, a connection being opened), not for
   * every forwarded call, which follows `cancellation` instead: two promises a call are garbage for every
   * call (docs/adr/0005-gateway-hot-path.md).
   */
  get expired(): Promise<never> {
    if (this.expiry === undefined) {
      this.expiry = this.out
        ? Promise.reject(new Error('deadline'))
        : new Promise<never>((_, reject) => {
            this.fire = () => reject(new Error('deadline'));
          });
      // Nobody may be waiting on it when it runs out (a held call): that is not an unhandled rejection.
      this.expiry.catch(() => undefined);
    }
    return this.expiry;
  }

  /** Whether it ran out (and not the call's caller who cancelled). */
  get ranOut(): boolean {
    return this.out;
  }

  get lastWaitMillis(): number {
    return this.millis;
  }

  /** Runs out `millis` from now, whatever was set before. */
  start(millis: number): void {
    this.stop();
    this.millis = millis;
    this.timer = setTimeout(() => {
      this.out = true;
      this.fire?.();
      this.cancellation.abort(new Error(`no answer within ${millis} ms`));
    }, millis);
  }

  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}
