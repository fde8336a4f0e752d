import { randomUUID } from 'node:crypto';

import type { RelayedCall } from './relayed-call';

/** How long a call whose server asked a 2026 caller for input waits for the caller's retry (docs/gateway.md). */
export const HELD_CALL_MILLIS = 60_000;

/** How many calls may be held at once (`mcp.heldCalls`, docs/configuration.md). */
export interface HeldCallLimits {
  /** On this replica, every MCP server bundle together. */
  readonly max: number;
  /** For one MCP server bundle. */
  readonly maxPerBundle: number;
}

/** One held call: its bundle, whose count it is in, and the timer that cancels it. */
interface Held<T> {
  readonly call: RelayedCall<T>;
  readonly bundle: string;
  readonly timer: NodeJS.Timeout;
}

/**
 * The calls of this replica waiting for a 2026-07-28 caller's retry with its answers (issue 28): a 2025
 * server asked during the call, and its call can only go on in the memory of the replica that holds it.
 * Each is held under a random key for at most `ttlMillis`, then cancelled. A held call counts against no
 * call slot, yet keeps its server's request open: so at most `limits` are held (issue 43), and a call past
 * them is not held at all.
 */
export class HeldCalls<T> {
  private readonly held = new Map<string, Held<T>>();
  /** The number held per bundle; a bundle holding none has no entry. */
  private readonly heldPerBundle = new Map<string, number>();

  constructor(
    private readonly limits: HeldCallLimits,
    private readonly ttlMillis = HELD_CALL_MILLIS,
  ) {}

  /** Holds `call` of `bundle`'s server under a new key; undefined, holding nothing, when a limit is reached. */
  hold(call: RelayedCall<T>, bundle: string): string | undefined {
    const ofBundle = this.heldPerBundle.get(bundle) ?? 0;
    if (this.held.size >= this.limits.max || ofBundle >= this.limits.maxPerBundle) return undefined;
    const key = randomUUID();
    const timer = setTimeout(() => {
      this.release(key);
      call.cancel(`the caller did not answer within ${this.ttlMillis} ms`);
    }, this.ttlMillis);
    timer.unref();
    this.held.set(key, { call, bundle, timer });
    this.heldPerBundle.set(bundle, ofBundle + 1);
    return key;
  }

  /** The call held under `key`, no longer held; undefined when it is not held here (another replica, or expired). */
  take(key: string): RelayedCall<T> | undefined {
    const entry = this.release(key);
    if (entry === undefined) return undefined;
    clearTimeout(entry.timer);
    return entry.call;
  }

  close(): void {
    for (const key of [...this.held.keys()]) this.take(key)?.cancel('the gateway is stopping');
  }

  /** Stops holding the call under `key`, its timer left to the caller. */
  private release(key: string): Held<T> | undefined {
    const entry = this.held.get(key);
    if (entry === undefined) return undefined;
    this.held.delete(key);
    const left = (this.heldPerBundle.get(entry.bundle) ?? 1) - 1;
    if (left === 0) this.heldPerBundle.delete(entry.bundle);
    else this.heldPerBundle.set(entry.bundle, left);
    return entry;
  }
}
