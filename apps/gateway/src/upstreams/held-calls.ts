import { randomUUID } from 'node:crypto';

import type { RelayedCall } from './relayed-call';

/** How long a call whose server asked a 2026 caller for input waits for the caller's retry (docs/gateway.md). */
export const HELD_CALL_MILLIS = 60_000;

/**
 * The calls of this replica waiting for a 2026-07-28 caller's retry with its answers (issue 28): a 2025
 * server asked during the call, and its call can only go on in the memory of the replica that holds it.
 * Each is held under a random key for at most `ttlMillis`, then cancelled.
 */
export class HeldCalls<T> {
  private readonly held = new Map<string, { readonly call: RelayedCall<T>; readonly timer: NodeJS.Timeout }>();

  constructor(private readonly ttlMillis = HELD_CALL_MILLIS) {}

  hold(call: RelayedCall<T>): string {
    const key = randomUUID();
    const timer = setTimeout(() => {
      this.held.delete(key);
      call.cancel(`the caller did not answer within ${this.ttlMillis} ms`);
    }, this.ttlMillis);
    timer.unref();
    this.held.set(key, { call, timer });
    return key;
  }

  /** The call held under `key`, no longer held; undefined when it is not held here (another replica, or expired). */
  take(key: string): RelayedCall<T> | undefined {
    const entry = this.held.get(key);
    if (entry === undefined) return undefined;
    clearTimeout(entry.timer);
    this.held.delete(key);
    return entry.call;
  }

  close(): void {
    for (const key of [...this.held.keys()]) this.take(key)?.cancel('the gateway is stopping');
  }
}
