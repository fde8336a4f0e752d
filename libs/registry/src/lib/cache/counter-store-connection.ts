import Redis from 'ioredis';

/**
 * A Redis connection for counters that must never hold a request up (the gateway's rate limits): it
 * queues nothing while disconnected, so during an outage each command fails at once, and a command a hung
 * Redis does not answer gives up after `commandTimeoutMillis`. Redis connections live in this library
 * (the one that may import ioredis); the client is handed out opaque, for a library that takes an ioredis
 * client (rate-limiter-flexible's `storeClient`).
 */
export interface CounterStoreConnection {
  readonly client: unknown;
  /** Connected and ready: a command sent now is answered or times out; otherwise it would fail at once. */
  ready(): boolean;
  /** `listener` is told of each connection error (false) and each time the connection is ready (true). */
  onAvailability(listener: (available: boolean) => void): void;
  close(): void;
}

export interface CounterStoreOptions {
  readonly url: string;
  /** Connecting holds no command up (none is queued meanwhile), so it may take longer than one command. */
  readonly connectTimeoutMillis: number;
  readonly commandTimeoutMillis: number;
}

export function connectCounterStore({ url, connectTimeoutMillis, commandTimeoutMillis }: CounterStoreOptions): CounterStoreConnection {
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    commandTimeout: commandTimeoutMillis,
    connectTimeout: connectTimeoutMillis,
    maxRetriesPerRequest: 1,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
  });
  // Without an 'error' listener ioredis prints each connection error.
  redis.on('error', () => undefined);
  return {
    client: redis,
    ready: () => redis.status === 'ready',
    onAvailability: (listener) => {
      redis.on('error', () => listener(false));
      redis.on('ready', () => listener(true));
    },
    close: () => redis.disconnect(),
  };
}
