import { startRedis, type TestRedis } from '@toolmesh/test-peers/redis-server';
import Redis from 'ioredis';

import { RegistryErrorCode } from '../errors';
import { capturedLog } from '../test-support/catalogue-fixture';
import { RedisSnapshotCache } from './redis-snapshot-cache';

const BUSY_300_MS = `
  local t = redis.call('TIME'); local started = t[1] * 1000000 + t[2]
  repeat t = redis.call('TIME') until t[1] * 1000000 + t[2] - started > 300000
  return 1`;

describe('RedisSnapshotCache (real redis-server)', () => {
  let redis: TestRedis | undefined;
  afterEach(() => redis?.kill());

  it('turns every failure into a miss and logs availability once per change, not per command', async () => {
    redis = await startRedis();
    const log = capturedLog();
    const cache = new RedisSnapshotCache({ url: redis.url, keyPrefix: 'p', portalRegistryKey: 'p:portal', commandTimeoutMillis: 300, log });
    try {
      await cache.writeRoute('core', { tools: [] });
      expect(await redis.get('p:identity:v2:route:core')).toEqual({ tools: [] });
      expect(await cache.readRoute('core')).toEqual({ tools: [] });
      expect(await cache.readRoute('absent')).toBeUndefined();

      const { port } = redis;
      await redis.kill();
      for (let i = 0; i < 5; i++) {
        expect(await cache.readRoute('core')).toBeUndefined();
        await cache.writePortalRegistry({ routes: [] });
      }
      expect(log.events).toEqual([`snapshot_cache_unavailable:${RegistryErrorCode.SnapshotCacheUnavailable}`]);

      redis = await startRedis(port);
      while ((await cache.readPortalRegistry()) === undefined) await cache.writePortalRegistry({ routes: [] });
      expect(log.events).toEqual([`snapshot_cache_unavailable:${RegistryErrorCode.SnapshotCacheUnavailable}`, 'snapshot_cache_available']);
    } finally {
      await cache.close();
    }
  });

  it('does not take a late reply to a command sent before an outage for a recovery', async () => {
    redis = await startRedis();
    const log = capturedLog();
    const cache = new RedisSnapshotCache({
      url: redis.url,
      keyPrefix: 'p',
      portalRegistryKey: 'p:portal',
      commandTimeoutMillis: 2_000,
      log,
    });
    const blocker = new Redis(redis.url);
    try {
      await cache.writeRoute('core', { tools: [] });
      // A script that keeps the (single-threaded) server busy for 300 ms: the next reply is that late.
      const serverBusy = blocker.eval(BUSY_300_MS, 0);
      const late = cache.readRoute('core');
      // The connection reports an error while that command is on its way (as when Redis is killed).
      (cache as unknown as { redis: Redis }).redis.emit('error', new Error('read ECONNRESET'));
      expect(await late).toEqual({ tools: [] });
      await serverBusy;
      expect(log.events).toEqual([`snapshot_cache_unavailable:${RegistryErrorCode.SnapshotCacheUnavailable}`]);

      expect(await cache.readRoute('core')).toEqual({ tools: [] }); // sent after the outage: a real recovery
      expect(log.events).toEqual([`snapshot_cache_unavailable:${RegistryErrorCode.SnapshotCacheUnavailable}`, 'snapshot_cache_available']);
    } finally {
      blocker.disconnect();
      await cache.close();
    }
  });

  it('reads an entry that is not JSON as a miss with a clear error', async () => {
    redis = await startRedis();
    const log = capturedLog();
    const cache = new RedisSnapshotCache({ url: redis.url, keyPrefix: 'p', portalRegistryKey: 'p:portal', commandTimeoutMillis: 300, log });
    await redis.set('p:portal', '{not json');
    expect(await cache.readPortalRegistry()).toBeUndefined();
    expect(log.events).toEqual([`snapshot_cache_entry_invalid:${RegistryErrorCode.SnapshotCacheInvalid}`]);
    await cache.close();
  });
});
