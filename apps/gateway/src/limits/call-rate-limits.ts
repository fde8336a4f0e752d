import type { RequestContext } from '@toolmesh/transport-http/server';
import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';

import { callerKey } from '../auth/caller-key';
import { toolPattern } from '../auth/tool-pattern';
import type { RateLimitSettings, RateLimitsSettings } from '../config/gateway-config';

/** Which limit refused a call: the caller's own, or the tool's (all callers together). */
export type RateLimitKind = 'caller' | 'tool';

export interface RateLimitRefusal {
  readonly limit: RateLimitKind;
  /** Whole seconds until the limit lets a call through again (`Retry-After`). */
  readonly retryAfterSeconds: number;
}

/** Where the counters live: this process, or Redis shared by the replicas under `keyPrefix` (an ioredis client, connectCounterStore's). */
export interface RateLimitStore {
  readonly redis?: unknown;
  readonly keyPrefix: string;
}

/**
 * Rate limits on tool calls (SPEC G27) with `rate-limiter-flexible` (ADR 0023): per caller (the verified
 * token's issuer and subject, hashed, `callerKey`, or the client's address when nobody is authenticated)
 * and per tool. With Redis
 * the counters hold across replicas; each Redis limiter has an in-memory twin that counts instead while
 * Redis fails, so an outage turns the limits local rather than blocking or refusing calls (the Redis
 * client queues nothing while disconnected: a command fails at once and the twin answers).
 */
export class CallRateLimits {
  private readonly perCaller: RateLimiterAbstract | undefined;
  private readonly perTool: ReadonlyArray<{ readonly matches: RegExp; readonly limiter: RateLimiterAbstract }>;

  constructor(settings: RateLimitsSettings, store: RateLimitStore) {
    this.perCaller = settings.perCaller && limiter(settings.perCaller, `${store.keyPrefix}:rate:caller`, store.redis);
    this.perTool = settings.perTool.map((rule, index) => ({
      matches: toolPattern(rule.tools),
      limiter: limiter(rule, `${store.keyPrefix}:rate:tool${index}`, store.redis),
    }));
  }

  /** Counts one call of `tool` by the request's caller; a refusal when a limit is spent. */
  async admit(tool: string, context: RequestContext): Promise<RateLimitRefusal | undefined> {
    if (this.perCaller) {
      const refused = await consume(this.perCaller, this.callerKey(context));
      if (refused !== undefined) return { limit: 'caller', retryAfterSeconds: refused };
    }
    const rule = this.perTool.find((candidate) => candidate.matches.test(tool));
    if (rule) {
      const refused = await consume(rule.limiter, tool);
      if (refused !== undefined) return { limit: 'tool', retryAfterSeconds: refused };
    }
    return undefined;
  }

  /** A subject is kept only as its hash (in Redis too); an address as itself. */
  private callerKey({ caller, clientAddress }: RequestContext): string {
    return caller === undefined ? `address:${clientAddress ?? 'unknown'}` : `subject:${callerKey(caller)}`;
  }
}

function limiter({ points, durationSeconds }: RateLimitSettings, keyPrefix: string, redis: unknown): RateLimiterAbstract {
  const local = new RateLimiterMemory({ points, duration: durationSeconds, keyPrefix });
  if (redis === undefined) return local;
  return new RateLimiterRedis({
    storeClient: redis,
    points,
    duration: durationSeconds,
    keyPrefix,
    insuranceLimiter: local,
    rejectIfRedisNotReady: true,
  });
}

/** Seconds to wait when the limit is spent; undefined when the call may go. */
async function consume(limiter: RateLimiterAbstract, key: string): Promise<number | undefined> {
  try {
    await limiter.consume(key);
    return undefined;
  } catch (outcome) {
    // A spent limit rejects with its state; anything else is a failure of both stores, which never stops a call.
    if (!(outcome instanceof RateLimiterRes)) return undefined;
    return Math.max(1, Math.ceil(outcome.msBeforeNext / 1000));
  }
}
