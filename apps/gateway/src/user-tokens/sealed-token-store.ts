/**
 * Where the vault keeps its sealed entries: by keyed name (never a subject), each a compact JWE. In this
 * process's memory for one replica, or in Redis shared by the replicas (`redis-sealed-token-store.ts`).
 */
export interface SealedTokenStore {
  get(name: string): Promise<string | undefined>;
  /** Stores the entry, expiring `ttlMillis` later (each write renews it). */
  set(name: string, sealed: string, ttlMillis: number): Promise<void>;
  /** Answers whether there was an entry to remove. */
  delete(name: string): Promise<boolean>;
  /**
   * Takes the refresh lease of the entry for `millis`, so that one replica refreshes it while the others
   * wait for its result; answers false when another holder has it. One replica: always true (the vault's
   * own single flight already keeps its calls to one refresh).
   */
  lease(name: string, millis: number): Promise<boolean>;
  release(name: string): Promise<void>;
  close(): void;
}

/** Entries in this process's memory: a single replica, or a gateway without `mcp.redis.url`. */
export class MemorySealedTokenStore implements SealedTokenStore {
  private readonly entries = new Map<string, { readonly sealed: string; readonly expiresAt: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  get(name: string): Promise<string | undefined> {
    const entry = this.entries.get(name);
    if (entry !== undefined && entry.expiresAt <= this.now()) this.entries.delete(name);
    return Promise.resolve(entry !== undefined && entry.expiresAt > this.now() ? entry.sealed : undefined);
  }

  set(name: string, sealed: string, ttlMillis: number): Promise<void> {
    this.entries.set(name, { sealed, expiresAt: this.now() + ttlMillis });
    return Promise.resolve();
  }

  async delete(name: string): Promise<boolean> {
    const present = (await this.get(name)) !== undefined;
    this.entries.delete(name);
    return present;
  }

  lease(): Promise<boolean> {
    return Promise.resolve(true);
  }

  release(): Promise<void> {
    return Promise.resolve();
  }

  close(): void {
    this.entries.clear();
  }
}
