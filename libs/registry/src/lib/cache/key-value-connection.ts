import { openRedis, type RedisConnectionOptions } from './open-redis';

/**
 * A Redis connection for small records shared by every replica (the gateway's tasks, issue 47): values by
 * key with an expiry, a set-if-absent for leases, and sorted indexes to list records by. Unlike the counter
 * store it queues commands while (re)connecting: a record is written on a client's request, which may come
 * the moment the gateway starts; a command a hung Redis does not answer still gives up after
 * `commandTimeoutMillis`, and one is retried once at most across a reconnect.
 */
export interface KeyValueConnection {
  get(key: string): Promise<string | undefined>;
  /** Stores `value`, expiring `expireMillis` later. */
  set(key: string, value: string, expireMillis: number): Promise<void>;
  /** Stores `value` only where the key holds nothing; answers whether it did (a lease taken). */
  setIfAbsent(key: string, value: string, expireMillis: number): Promise<boolean>;
  delete(key: string): Promise<void>;
  /** Adds `member` to the sorted index at `index` with `score`; the index expires `expireMillis` later (each add renews it). */
  indexAdd(index: string, member: string, score: number, expireMillis: number): Promise<void>;
  /** Up to `count` members of the index with a score of at least `fromScore`, lowest first. */
  indexRange(index: string, fromScore: number, count: number): Promise<Array<{ member: string; score: number }>>;
  indexRemove(index: string, member: string): Promise<void>;
  /** How many members of the index have a score of at least `fromScore`. */
  indexCount(index: string, fromScore: number): Promise<number>;
  close(): void;
}

export function connectKeyValueStore(options: RedisConnectionOptions): KeyValueConnection {
  const redis = openRedis(options, { queueWhileDisconnected: true });
  return {
    get: async (key) => (await redis.get(key)) ?? undefined,
    set: async (key, value, expireMillis) => {
      await redis.set(key, value, 'PX', Math.max(1, Math.ceil(expireMillis)));
    },
    setIfAbsent: async (key, value, expireMillis) =>
      (await redis.set(key, value, 'PX', Math.max(1, Math.ceil(expireMillis)), 'NX')) === 'OK',
    delete: async (key) => {
      await redis.del(key);
    },
    indexAdd: async (index, member, score, expireMillis) => {
      await redis
        .multi()
        .zadd(index, score, member)
        .pexpire(index, Math.max(1, Math.ceil(expireMillis)))
        .exec();
    },
    indexRange: async (index, fromScore, count) => {
      const flat = await redis.zrangebyscore(index, fromScore, '+inf', 'WITHSCORES', 'LIMIT', 0, count);
      const members: Array<{ member: string; score: number }> = [];
      for (let i = 0; i + 1 < flat.length; i += 2) members.push({ member: flat[i], score: Number(flat[i + 1]) });
      return members;
    },
    indexRemove: async (index, member) => {
      await redis.zrem(index, member);
    },
    indexCount: (index, fromScore) => redis.zcount(index, fromScore, '+inf'),
    close: () => redis.disconnect(),
  };
}
