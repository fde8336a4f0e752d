import type { AuthenticatedCaller } from '@toolmesh/transport-http/server';

interface Entry {
  readonly caller: AuthenticatedCaller;
  /** `exp`, in ms: the entry is never used past it. */
  readonly expiresAt: number;
}

/**
 * Tokens already verified, each until its own expiry: the hot path of an authenticated call is one map
 * look-up, no signature check (the benchmark's goal, docs/benchmarks.md). Bounded: beyond `maxEntries`
 * the oldest entry goes. Held in memory only; a token is never logged or written anywhere.
 */
export class VerifiedTokens {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly maxEntries: number,
    private readonly now: () => number = Date.now,
  ) {}

  get(token: string): AuthenticatedCaller | undefined {
    const entry = this.entries.get(token);
    if (entry === undefined) return undefined;
    if (entry.expiresAt > this.now()) return entry.caller;
    this.entries.delete(token);
    return undefined;
  }

  set(token: string, caller: AuthenticatedCaller, expiresAt: number): void {
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(token, { caller, expiresAt });
  }
}
