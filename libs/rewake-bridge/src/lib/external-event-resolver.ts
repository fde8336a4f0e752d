import { type EventFilter, type ExternalEvent, matchesFilter } from './external-event';
import { RewakeError, RewakeErrorCode } from './rewake-errors';

/** Undelivered events kept for a later wait, by default. */
export const DEFAULT_EVENT_BUFFER_SIZE = 100;
/** The longest wait a timer can express (setTimeout's limit, about 24.8 days). */
export const MAX_WAIT_MS = 2_147_483_647;

export type WaitOutcome =
  | { readonly kind: 'event'; readonly event: ExternalEvent }
  | { readonly kind: 'timeout'; readonly timeoutMs: number }
  /** The caller's signal was aborted (Ctrl-C, the executor giving up). */
  | { readonly kind: 'aborted' }
  /** The resolver was closed (the runtime is shutting down). */
  | { readonly kind: 'closed' };

/** Where events go: the bridge needs only this. */
export interface EventSink {
  publish(event: ExternalEvent): void;
}

/** What a waiting tool or command needs: `ExternalEventResolver` is one. */
export interface EventWaiter {
  waitFor(filter: EventFilter, timeoutMs?: number, signal?: AbortSignal): Promise<WaitOutcome>;
}

interface Waiter {
  readonly filter: EventFilter;
  settle(outcome: WaitOutcome): void;
}

/**
 * Hands published events to whoever waits for them. An event goes to every waiter whose filter it
 * matches; an event nobody waits for is buffered, so one that arrives between two model turns still wakes
 * the next wait. The buffer holds at most `bufferSize` events: when full, the oldest is dropped and
 * counted (`dropped`). A wait takes the oldest buffered event its filter matches first.
 *
 * A wait ends with an event, a timeout, an abort of its signal, or the resolver's close; each ending
 * clears its timer and its abort listener, so nothing is left behind.
 */
export class ExternalEventResolver implements EventSink, EventWaiter {
  private readonly buffer: ExternalEvent[] = [];
  private readonly waiters = new Set<Waiter>();
  private droppedCount = 0;
  private closed = false;

  /** `onOverflow` is told the total dropped so far each time the full buffer drops an event. */
  constructor(
    readonly bufferSize = DEFAULT_EVENT_BUFFER_SIZE,
    private readonly onOverflow: (droppedSoFar: number) => void = () => undefined,
  ) {
    if (!Number.isSafeInteger(bufferSize) || bufferSize < 1) {
      throw new RewakeError(
        RewakeErrorCode.InvalidBufferSize,
        `the event buffer size must be a positive whole number, not ${String(bufferSize)}`,
      );
    }
  }

  publish(event: ExternalEvent): void {
    if (this.closed) return;
    const matching = [...this.waiters].filter((waiter) => matchesFilter(event, waiter.filter));
    if (matching.length > 0) {
      for (const waiter of matching) waiter.settle({ kind: 'event', event });
      return;
    }
    this.buffer.push(event);
    if (this.buffer.length > this.bufferSize) {
      this.buffer.shift();
      this.droppedCount += 1;
      this.onOverflow(this.droppedCount);
    }
  }

  /** Waits for the first event matching `filter`, for at most `timeoutMs` (none: until abort or close). */
  waitFor(filter: EventFilter, timeoutMs?: number, signal?: AbortSignal): Promise<WaitOutcome> {
    if (timeoutMs !== undefined && !(Number.isSafeInteger(timeoutMs) && timeoutMs >= 0 && timeoutMs <= MAX_WAIT_MS)) {
      return Promise.reject(
        new RewakeError(
          RewakeErrorCode.InvalidTimeout,
          `a wait's timeout must be a whole number of milliseconds from 0 to ${MAX_WAIT_MS}, not ${String(timeoutMs)}`,
        ),
      );
    }
    if (this.closed) return Promise.resolve({ kind: 'closed' });
    if (signal?.aborted) return Promise.resolve({ kind: 'aborted' });
    const index = this.buffer.findIndex((event) => matchesFilter(event, filter));
    if (index !== -1) return Promise.resolve({ kind: 'event', event: this.buffer.splice(index, 1)[0] });

    return new Promise((resolve) => {
      const onAbort = () => waiter.settle({ kind: 'aborted' });
      const timer = timeoutMs === undefined ? undefined : setTimeout(() => waiter.settle({ kind: 'timeout', timeoutMs }), timeoutMs);
      const waiter: Waiter = {
        filter,
        settle: (outcome) => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
          this.waiters.delete(waiter);
          resolve(outcome);
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiters.add(waiter);
    });
  }

  /** Ends every wait with `closed` and drops the buffer; later publishes are ignored, later waits end at once. */
  close(): void {
    this.closed = true;
    for (const waiter of [...this.waiters]) waiter.settle({ kind: 'closed' });
    this.buffer.length = 0;
  }

  /** Events buffered for a later wait. */
  get pending(): number {
    return this.buffer.length;
  }

  /** Events dropped from the full buffer since the start. */
  get dropped(): number {
    return this.droppedCount;
  }

  /** Waits in progress. */
  get waiting(): number {
    return this.waiters.size;
  }
}
