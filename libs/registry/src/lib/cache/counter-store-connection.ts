import Redis from 'ioredis';

/**
 * A Redis connection for counters that must never hold a request up (the gateway's rate limits): it
 * queues nothing while disconnected, so during an outage each command fails at once and its user counts
 * another way. Redis connections live in this library (the one that may import ioredis); the client is
 * handed out opaque, for a library that takes an ioredis client (rate-limiter-flexible's `storeClient`).
 */
export interface CounterStoreConnection {
  readonly client: unknown;
  close(): void;
}

export interface CounterStoreOptions {
  readonly url: string;
  readonly commandTimeoutMillis: number;
  /** Told once when Redis becomes unreachable, and once when it is back. */
  readonly onAvailability: (available: boolean) => void;
}

export function connectCounterStore({ url, commandTimeoutMillis, onAvailability }: CounterStoreOptions): CounterStoreConnection {
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    commandTimeout: commandTimeoutMillis,
    connectTimeout: commandTimeoutMillis,
    maxRetriesPerRequest: 1,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
  });
  let available = true;
  const tell = (now: boolean) => {
    if (now !== available) onAvailability(now);
    available = now;
  };
  redis.on('error', () => tell(false));
  redis.on('ready', () => tell(true));
  return { client: redis, close: () => redis.disconnect() };
}
