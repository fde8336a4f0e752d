import Redis from 'ioredis';

/** Where a Redis connection goes and how long it waits. Redis connections live in this library (the one that may import ioredis). */
export interface RedisConnectionOptions {
  readonly url: string;
  readonly connectTimeoutMillis: number;
  /** A command a hung Redis does not answer gives up after this long. */
  readonly commandTimeoutMillis: number;
}

/**
 * Opens the one kind of Redis client the gateway uses: a command is retried once at most across a
 * reconnect, reconnection backs off up to 2 s, and connection errors reach `onError` (a silent default:
 * without an 'error' listener ioredis prints each one). `queueWhileDisconnected` decides what a command
 * does during an outage: wait in the offline queue (records written on a client's request, which may come
 * the moment the gateway starts) or fail at once (counters that must never hold a request up).
 */
export function openRedis(
  { url, connectTimeoutMillis, commandTimeoutMillis }: RedisConnectionOptions,
  { queueWhileDisconnected, onError = () => undefined }: { queueWhileDisconnected: boolean; onError?: (error: Error) => void },
): Redis {
  const redis = new Redis(url, {
    enableOfflineQueue: queueWhileDisconnected,
    commandTimeout: commandTimeoutMillis,
    connectTimeout: connectTimeoutMillis,
    maxRetriesPerRequest: 1,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
  });
  redis.on('error', onError);
  return redis;
}
