/**
 * A request's cancellation that costs next to nothing until it is used, named as `AbortSignal` is where
 * the two overlap (`aborted`, `reason`, `throwIfAborted`). Node 20's `AbortSignal` costs about 3.6 us to
 * create, and one made for every forwarded call pushed a gateway's garbage collector into old-space
 * collections (docs/benchmarks.md, "Federated tool calls"). `signal` makes a standard one on demand, for
 * the APIs that take nothing else.
 */
export class Cancellation {
  private abortedWith: Error | undefined;
  private listeners: ((reason: Error) => void)[] | undefined;
  private controller: AbortController | undefined;

  get aborted(): boolean {
    return this.abortedWith !== undefined;
  }

  /** Why it was aborted; undefined until it is. */
  get reason(): Error | undefined {
    return this.abortedWith;
  }

  /** A standard signal that aborts with it (already aborted if it is), made on first use. */
  get signal(): AbortSignal {
    if (this.controller === undefined) {
      this.controller = new AbortController();
      if (this.abortedWith !== undefined) this.controller.abort(this.abortedWith);
    }
    return this.controller.signal;
  }

  /** Follows `signal`: aborted when it is, with its reason. */
  static following(signal: AbortSignal): Cancellation {
    const cancellation = new Cancellation();
    if (signal.aborted) cancellation.abort(asError(signal.reason));
    else signal.addEventListener('abort', () => cancellation.abort(asError(signal.reason)), { once: true });
    return cancellation;
  }

  throwIfAborted(): void {
    if (this.abortedWith !== undefined) throw this.abortedWith;
  }

  /**
   * `listener` is called once when it is aborted, at once when it already is. `offAbort` removes it (what
   * a caller does once its request is over, so that nothing outlives it): no function is made per listener.
   */
  onAbort(listener: (reason: Error) => void): void {
    if (this.abortedWith !== undefined) listener(this.abortedWith);
    else (this.listeners ??= []).push(listener);
  }

  offAbort(listener: (reason: Error) => void): void {
    const at = this.listeners?.indexOf(listener) ?? -1;
    if (at !== -1) this.listeners?.splice(at, 1);
  }

  /** The first call aborts it and tells each listener; later calls change nothing. */
  abort(reason: Error): void {
    if (this.abortedWith !== undefined) return;
    this.abortedWith = reason;
    this.controller?.abort(reason);
    const listeners = this.listeners ?? [];
    this.listeners = undefined;
    for (const listener of listeners) listener(reason);
  }
}

function asError(reason: unknown): Error {
  return reason instanceof Error ? reason : new Error(String(reason));
}
