import { startRedis, type TestRedis } from '../../testing/redis-server';
import { RegistryErrorCode } from '../errors';
import { capturedLog } from '../test-support/catalogue-fixture';
import { RedisSnapshotCache } from './redis-snapshot-cache';

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
