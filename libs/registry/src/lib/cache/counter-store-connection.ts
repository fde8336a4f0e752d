import { openRedis, type RedisConnectionOptions } from './open-redis';

/**
 * Adds `ARGV[1]` to a counter (KEYS[1]) and answers its new value; the first addition sets its expiry
 * (`ARGV[2]` ms), so a window's counter outlives the window by nothing.
 */
const ADD_SCRIPT = `local total = redis.call('INCRBY', KEYS[1], ARGV[1])
if total == tonumber(ARGV[1]) then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return total`;

/**
 * A Redis connection for counters that must never hold a request up (the gateway's rate limits): it
 * queues nothing while disconnected, so during an outage each command fails at once, and a command a hung
 * Redis does not answer gives up after `commandTimeoutMillis`. Connecting holds no command up (none is
 * queued meanwhile), so its timeout may be longer than a command's.
 */
export interface CounterStoreConnection {
  /**
   * Adds `amount` to the counter at `key` in one command and answers its new value; a counter that did
   * not exist expires `expireMillis` later. Rejects when Redis fails or does not answer in time.
   */
  add(key: string, amount: number, expireMillis: number): Promise<number>;
  /** Connected and ready: a command sent now is answered or times out; otherwise it would fail at once. */
  ready(): boolean;
  /** `listener` is told of each connection error (false) and each time the connection is ready (true). */
  onAvailability(listener: (available: boolean) => void): void;
  close(): void;
}

export function connectCounterStore(options: RedisConnectionOptions): CounterStoreConnection {
  const redis = openRedis(options, { queueWhileDisconnected: false });
  return {
    add: async (key, amount, expireMillis) => Number(await redis.eval(ADD_SCRIPT, 1, key, amount, expireMillis)),
    ready: () => redis.status === 'ready',
    onAvailability: (listener) => {
      redis.on('error', () => listener(false));
      redis.on('ready', () => listener(true));
    },
    close: () => redis.disconnect(),
  };
}
