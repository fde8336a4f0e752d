import type { CounterStoreConnection } from '@toolmesh/registry';
import type { RequestContext } from '@toolmesh/transport-http/server';
import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';

import { callerKey } from '../auth/caller-key';
import { toolPattern } from '../auth/tool-pattern';
import { CircuitBreaker } from '../call/circuit-breaker';
import type { RateLimitSettings, RateLimitsSettings } from '../config/gateway-config';
import { RedisLeases } from './redis-leases';

/** Which limit refused a call: the caller's own, or the tool's (all callers together). */
export type RateLimitKind = 'caller' | 'tool';

export interface RateLimitRefusal {
  readonly limit: RateLimitKind;
  /** Whole seconds until the limit lets a call through again (`Retry-After`). */
  readonly retryAfterSeconds: number;
}

/** Where the counters live: this process, or Redis shared by the replicas under `keyPrefix`. */
export interface RateLimitStore {
  readonly keyPrefix: string;
  readonly redis?: {
    /** connectCounterStore's: its commands give up after a short timeout. */
    readonly connection: CounterStoreConnection;
    /** After a Redis command failed, how long the counters stay in memory before Redis is tried again. */
    readonly retryAfterMillis: number;
    /** Most points a replica reserves of a limit at once (redis-leases.ts). */
    readonly maxLease: number;
    /** Told once when the limits turn local (Redis failed or cannot be reached), and once when Redis counts again. */
    readonly onAvailability: (available: boolean) => void;
  };
}

/** One limit's counters: in this process, and in Redis when there is one. */
interface Counters {
  readonly local: RateLimiterAbstract;
  readonly shared?: RedisLeases;
}

/**
 * Rate limits on tool calls (SPEC G27) with `rate-limiter-flexible` (ADR 0023): per caller (the verified
 * token's issuer and subject, hashed, `callerKey`, or the client's address when nobody is authenticated)
 * and per tool. With Redis the counters hold across replicas, reserved a lease at a time so that most
 * calls ask Redis nothing (redis-leases.ts); each limit also counts in memory, which
 * answers instead while Redis fails, so an outage turns the limits local rather than blocking or refusing
 * calls. While the connection is not ready (connecting, or Redis is gone) memory counts at once. A command
 * that fails on a ready connection (a Redis that hangs: it times out) opens a circuit breaker: for
 * `retryAfterMillis` no call asks Redis at all, then one call tries it again. So a hung Redis costs one
 * call its command timeout per back-off, not every call.
 */
export class CallRateLimits {
  private readonly perCaller: Counters | undefined;
  private readonly perTool: ReadonlyArray<{ readonly matches: RegExp; readonly counters: Counters }>;
  private readonly breaker: CircuitBreaker | undefined;
  private redisAvailable = true;

  constructor(
    settings: RateLimitsSettings,
    private readonly store: RateLimitStore,
  ) {
    this.perCaller = settings.perCaller && counters(settings.perCaller, `${store.keyPrefix}:rate:caller`, store.redis);
    this.perTool = settings.perTool.map((rule, index) => ({
      matches: toolPattern(rule.tools),
      counters: counters(rule, `${store.keyPrefix}:rate:tool${index}`, store.redis),
    }));
    this.breaker = store.redis && new CircuitBreaker({ failureThreshold: 1, coolDownMillis: store.redis.retryAfterMillis });
    store.redis?.connection.onAvailability((available) => this.tell(available));
  }

  /** Counts one call of `tool` by the request's caller; a refusal when a limit is spent. */
  async admit(tool: string, context: RequestContext): Promise<RateLimitRefusal | undefined> {
    if (this.perCaller) {
      const refused = await this.consume(this.perCaller, this.callerKey(context));
      if (refused !== undefined) return { limit: 'caller', retryAfterSeconds: refused };
    }
    const rule = this.perTool.find((candidate) => candidate.matches.test(tool));
    if (rule) {
      const refused = await this.consume(rule.counters, tool);
      if (refused !== undefined) return { limit: 'tool', retryAfterSeconds: refused };
    }
    return undefined;
  }

  /** A subject is kept only as its hash (in Redis too); an address as itself. */
  private callerKey({ caller, clientAddress }: RequestContext): string {
    return caller === undefined ? `address:${clientAddress ?? 'unknown'}` : `subject:${callerKey(caller)}`;
  }

  /** Seconds to wait when the limit is spent; undefined when the call may go. Redis while the breaker lets it, else memory. */
  private async consume({ local, shared }: Counters, key: string): Promise<number | undefined> {
    // The breaker asked last: half-open, its `admit` lets this call be the one trial.
    if (shared !== undefined && this.store.redis?.connection.ready() && this.breaker?.admit()) {
      try {
        const waitMillis = await shared.take(key);
        this.redisAnswered(true);
        return waitMillis === undefined ? undefined : wholeSeconds(waitMillis);
      } catch {
        // Redis failing: memory counts instead.
        this.redisAnswered(false);
      }
    }
    try {
      await local.consume(key);
      return undefined;
    } catch (outcome) {
      // Memory cannot fail; a non-limit rejection would be a bug, which never stops a call.
      return outcome instanceof RateLimiterRes ? retryAfterSeconds(outcome) : undefined;
    }
  }

  private redisAnswered(answered: boolean): void {
    if (answered) this.breaker?.succeeded();
    else this.breaker?.failed();
    this.tell(answered);
  }

  /** Once per change, whether a command or the connection says so. */
  private tell(available: boolean): void {
    if (available === this.redisAvailable) return;
    this.redisAvailable = available;
    this.store.redis?.onAvailability(available);
  }
}

function counters({ points, durationSeconds }: RateLimitSettings, keyPrefix: string, redis: RateLimitStore['redis']): Counters {
  const local = new RateLimiterMemory({ points, duration: durationSeconds, keyPrefix });
  if (redis === undefined) return { local };
  // A command sent while the connection is not ready (it dropped since `ready()` was asked) is refused at
  // once, never queued (connectCounterStore).
  return { local, shared: new RedisLeases(redis.connection, { points, durationSeconds, keyPrefix, maxLease: redis.maxLease }) };
}

function retryAfterSeconds(spent: RateLimiterRes): number {
  return wholeSeconds(spent.msBeforeNext);
}

function wholeSeconds(millis: number): number {
  return Math.max(1, Math.ceil(millis / 1000));
}
