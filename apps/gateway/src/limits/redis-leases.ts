import type { CounterStoreConnection } from '@toolmesh/registry';

/** What one replica holds of a key's window: the points it reserved and has not used yet. */
interface Lease {
  readonly window: number;
  left: number;
  /** Redis has no point left in this window: once `left` is used, calls wait for the next window. */
  spent: boolean;
  /** The reservation on its way, which the calls that find `left` at 0 meanwhile wait for together. */
  pending?: Promise<void>;
}

export interface LeaseSettings {
  readonly points: number;
  readonly durationSeconds: number;
  readonly keyPrefix: string;
  /** Most points reserved at once (`mcp.redis.rateLimitLeaseMax`); 1 asks Redis for every call. */
  readonly maxLease: number;
}

/** A twentieth of the limit, within [1, maxLease]: small limits stay exact, large ones ask Redis rarely. */
export function leaseSize({ points, maxLease }: Pick<LeaseSettings, 'points' | 'maxLease'>): number {
  return Math.max(1, Math.min(maxLease, Math.floor(points / 20)));
}

/**
 * One limit counted in Redis across replicas without a round trip per call (issue 50): a replica reserves
 * a lease of points in the window's shared count (one `INCRBY`) and admits calls from it in memory until it
 * is used. A call is never admitted beyond the limit (every admitted point was reserved first); the price is
 * the other way round: points another replica reserved and has not used yet are unavailable, so a caller
 * may be refused up to `(replicas - 1) * (lease - 1)` calls early in a window. Windows are fixed, aligned
 * to the epoch, so every replica agrees where one ends.
 */
export class RedisLeases {
  private readonly leases = new Map<string, Lease>();
  private readonly durationMillis: number;
  private readonly lease: number;
  private sweptWindow = 0;

  constructor(
    private readonly counters: Pick<CounterStoreConnection, 'add'>,
    private readonly settings: LeaseSettings,
    private readonly now: () => number = Date.now,
  ) {
    this.durationMillis = settings.durationSeconds * 1000;
    this.lease = leaseSize(settings);
  }

  /**
   * One call of `key`: undefined when it may go, else the milliseconds until the window ends. Answered from
   * the lease when it has a point left (no promise made); rejects when Redis fails, for the caller to count
   * in memory instead.
   */
  take(key: string): number | undefined | Promise<number | undefined> {
    const now = this.now();
    const window = Math.floor(now / this.durationMillis);
    this.forgetBefore(window);
    let lease = this.leases.get(key);
    if (lease === undefined || lease.window !== window) {
      lease = { window, left: 0, spent: false };
      this.leases.set(key, lease);
    }
    if (lease.left > 0) {
      lease.left -= 1;
      return undefined;
    }
    if (lease.spent) return (window + 1) * this.durationMillis - now;
    return this.takeReserved(key, lease);
  }

  private async takeReserved(key: string, lease: Lease): Promise<number | undefined> {
    lease.pending ??= this.reserve(key, lease).finally(() => {
      lease.pending = undefined;
    });
    await lease.pending;
    // Asked again: the calls that waited together share what came, and the window may have turned.
    return this.take(key);
  }

  private async reserve(key: string, lease: Lease): Promise<void> {
    const size = this.lease;
    // The window's count with this reservation in it, shared by the replicas.
    const total = await this.counters.add(`${this.settings.keyPrefix}:${key}:${lease.window}`, size, this.durationMillis);
    // The points of this reservation that were still within the limit; the rest is over it and unused.
    lease.left += Math.max(0, Math.min(size, this.settings.points - (total - size)));
    if (total >= this.settings.points) lease.spent = true;
  }

  /** The leases of windows that ended, dropped once per window, so a key seen once is not kept. */
  private forgetBefore(window: number): void {
    if (window <= this.sweptWindow) return;
    this.sweptWindow = window;
    for (const [key, lease] of this.leases) if (lease.window < window) this.leases.delete(key);
  }
}
