import { connectCounterStore, type CounterStoreConnection } from '@toolmesh/registry';
import { startRedis, type TestRedis } from '@toolmesh/test-peers/redis-server';

import { leaseSize, RedisLeases } from './redis-leases';

/**
 * Limits counted in Redis a lease at a time, against a real redis-server: two instances stand for two
 * replicas (each its own connection and leases), sharing one count.
 */
let redis: TestRedis;
const connections: CounterStoreConnection[] = [];
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  for (const connection of connections) connection.close();
  await redis?.kill();
});

let serial = 0;
/** `count` replicas of one limit, their clock at `clock.now` (one window from 0 until `durationSeconds`). */
async function replicas(count: number, settings: { points: number; maxLease: number }, clock = { now: 1_000 }) {
  const keyPrefix = `leases-${(serial += 1)}`;
  return Promise.all(
    Array.from({ length: count }, async () => {
      const connection = await readyConnection(redis.url);
      return new RedisLeases(connection, { durationSeconds: 60, ...settings, keyPrefix }, () => clock.now);
    }),
  );
}

/** The gateway's own connection (no offline queue: a command before it is ready fails at once). */
async function readyConnection(url: string): Promise<CounterStoreConnection> {
  const connection = connectCounterStore({ url, connectTimeoutMillis: 5_000, commandTimeoutMillis: 5_000 });
  connections.push(connection);
  await new Promise<void>((resolve) => connection.onAvailability((available) => available && resolve()));
  return connection;
}

async function admitted(replica: RedisLeases, key: string, calls: number): Promise<number> {
  const outcomes = await Promise.all(Array.from({ length: calls }, () => replica.take(key)));
  return outcomes.filter((outcome) => outcome === undefined).length;
}

describe('a limit counted in Redis a lease at a time', () => {
  it('reserves a twentieth of the limit at once, at least one point and at most maxLease', () => {
    expect(leaseSize({ points: 3, maxLease: 100 })).toBe(1);
    expect(leaseSize({ points: 200, maxLease: 100 })).toBe(10);
    expect(leaseSize({ points: 1_000_000, maxLease: 100 })).toBe(100);
    expect(leaseSize({ points: 1_000_000, maxLease: 1 })).toBe(1);
  });

  it('never admits more than the limit across two replicas, asking Redis once per lease, not per call', async () => {
    const [first, second] = await replicas(2, { points: 200, maxLease: 100 });
    const before = await redis.evalCalls();
    // Interleaved and concurrent, 300 calls for 200 points: 10 points per lease.
    const counts = await Promise.all([admitted(first, 'caller', 150), admitted(second, 'caller', 150)]);
    expect(counts[0] + counts[1]).toBe(200);
    const roundTrips = (await redis.evalCalls()) - before;
    // 20 leases of 10 fill the limit, and each replica learns once more that nothing is left.
    expect(roundTrips).toBeLessThanOrEqual(22);
  });

  it('may refuse early only by what the other replicas reserved and have not used: at most (replicas - 1) * (lease - 1)', async () => {
    const [first, second] = await replicas(2, { points: 200, maxLease: 100 });
    expect(await admitted(first, 'caller', 1)).toBe(1); // reserves 10, uses 1
    const seconds = await admitted(second, 'caller', 300);
    expect(seconds).toBe(190);
    expect(200 - 1 - seconds).toBeLessThanOrEqual(leaseSize({ points: 200, maxLease: 100 }) - 1);
    // The first replica still has its 9.
    expect(await admitted(first, 'caller', 20)).toBe(9);
  });

  it('answers a refusal with the time until the window ends, and admits again in the next window', async () => {
    const clock = { now: 30_000 };
    const [only] = await replicas(1, { points: 3, maxLease: 100 }, clock);
    expect(await admitted(only, 'caller', 3)).toBe(3);
    expect(await only.take('caller')).toBe(30_000);
    expect(await admitted(only, 'another caller', 1)).toBe(1);
    clock.now = 60_000;
    expect(await admitted(only, 'caller', 3)).toBe(3);
  });

  it('keeps a small limit exact: a lease of one point, a round trip per point; the replica that took the last knows without asking again', async () => {
    const [first, second] = await replicas(2, { points: 3, maxLease: 100 });
    const before = await redis.evalCalls();
    expect(await admitted(first, 'frank', 2)).toBe(2);
    expect(await admitted(second, 'frank', 2)).toBe(1);
    expect((await redis.evalCalls()) - before).toBe(3);
  });

  it('rejects while Redis cannot be reached, for the caller to count in memory', async () => {
    const unreachable = connectCounterStore({ url: 'redis://127.0.0.1:1', connectTimeoutMillis: 1_000, commandTimeoutMillis: 1_000 });
    connections.push(unreachable);
    const leases = new RedisLeases(unreachable, { points: 10, durationSeconds: 60, keyPrefix: 'nowhere', maxLease: 100 });
    await expect(leases.take('caller')).rejects.toThrow();
  });
});
