import { DocumentServer } from '@toolmesh/test-peers/document-server';
import { startRedis, type TestRedis } from '@toolmesh/test-peers/redis-server';

import { RedisSnapshotCache } from '../cache/redis-snapshot-cache';
import { RegistryErrorCode } from '../errors';
import { StaticRouteDirectory } from '../portal/route-directory';
import { capturedLog, listedNames, manifestOf, manifestPath, manualClock, routeOn } from '../test-support/catalogue-fixture';
import { LiveCatalogue } from './live-catalogue';

const TTL = 60_000;
const KEY = 'gw:identity:v2:route:core';

/**
 * The seed's "Tool metadata 갱신 장애 시나리오": one test per row of its two tables, against a real HTTP
 * tool service and a real redis-server. "tools/list" is the generation's pre-serialized body, which is
 * exactly what the gateway's tools/list handler returns (and -32003 when there is none).
 */
describe('the seed failure tables (real tool service, real redis-server)', () => {
  let service: DocumentServer;
  let redis: TestRedis;
  let log: ReturnType<typeof capturedLog>;
  let clock: ReturnType<typeof manualClock>;
  const caches: RedisSnapshotCache[] = [];

  beforeEach(async () => {
    [service, redis] = await Promise.all([new DocumentServer().start(), startRedis()]);
    log = capturedLog();
    clock = manualClock();
  });
  afterEach(async () => {
    await Promise.all([service.stop(), redis.kill(), ...caches.splice(0).map((cache) => cache.close())]);
  });

  function gateway() {
    const cache = new RedisSnapshotCache({
      url: redis.url,
      keyPrefix: 'gw',
      portalRegistryKey: 'gw:portal-registry',
      commandTimeoutMillis: 500,
      log,
    });
    caches.push(cache);
    return new LiveCatalogue({
      directory: new StaticRouteDirectory([routeOn(service, 'core')]),
      limits: { maxTools: 100, maxSerializedBytes: 1_000_000, toolsListPageSize: 1_000 },
      manifestTtlMillis: TTL,
      forcedRefreshCooldownMillis: 5_000,
      requestedRefreshIntervalMillis: 1_000,
      cache,
      log,
      now: clock.now,
    });
  }
  const toolsList = (catalogue: LiveCatalogue) => listedNames(catalogue.current()?.toolsListResult.json);
  /** The route's tool names as Redis holds them, once the best-effort write has landed. */
  async function redisTools(): Promise<string[] | undefined> {
    const entry = (await redis.get(KEY)) as { manifests: Array<{ manifest: { tools: Array<{ name: string }> } }> } | undefined;
    return entry?.manifests.flatMap((m) => m.manifest.tools.map((tool) => tool.name));
  }
  async function eventuallyRedisTools(expected: string[]): Promise<void> {
    while (JSON.stringify(await redisTools()) !== JSON.stringify(expected)) await new Promise((resolve) => setTimeout(resolve, 10));
  }
  /** Another replica's snapshot, written by a gateway of its own. */
  async function otherReplicaWrites(...names: string[]): Promise<void> {
    service.serve(manifestPath('core'), { json: manifestOf(...names) });
    await gateway().refreshAll();
    await eventuallyRedisTools(names);
  }

  describe('request path', () => {
    it('memory hit, source irrelevant: memory is returned and Redis is not called', async () => {
      service.serve(manifestPath('core'), { json: manifestOf('a1') });
      const catalogue = gateway();
      await catalogue.refreshAll();
      await eventuallyRedisTools(['a1']);
      await redis.set(KEY, 'planted by someone else');
      await service.stop();
      const getsBefore = await redis.getCalls();
      for (let i = 0; i < 20; i++) expect(toolsList(catalogue)).toEqual(['a1']);
      expect(await redis.getCalls()).toBe(getsBefore);
      expect(await redis.get(KEY).catch(() => 'still planted')).toBe('still planted');
    });

    it('memory hit, Redis down: memory is returned, and no client sees Redis', async () => {
      service.serve(manifestPath('core'), { json: manifestOf('a1') });
      const catalogue = gateway();
      await catalogue.refreshAll();
      await redis.kill();
      clock.advance(TTL); // the background refresh that follows writes to a dead Redis
      for (let i = 0; i < 20; i++) expect(toolsList(catalogue)).toEqual(['a1']);
      await catalogue.refreshAll();
      expect(toolsList(catalogue)).toEqual(['a1']);
    });

    it('memory miss (just started), source confirmable: the tool service is read and memory filled; Redis then holds it', async () => {
      service.serve(manifestPath('core'), { json: manifestOf('a1', 'a2') });
      const catalogue = gateway();
      expect(listedNames((await catalogue.ensureLoaded())?.toolsListResult.json)).toEqual(['a1', 'a2']);
      await eventuallyRedisTools(['a1', 'a2']);
      expect(catalogue.status().bundles[0].source).toBe('remote');
    });

    it("memory miss, source not confirmable, Redis hit: another replica's snapshot is adopted; Redis is unchanged", async () => {
      await otherReplicaWrites('r1', 'r2');
      service.serve(manifestPath('core'), { status: 503 });
      const catalogue = gateway();
      expect(listedNames((await catalogue.ensureLoaded())?.toolsListResult.json)).toEqual(['r1', 'r2']);
      expect(catalogue.status().bundles[0]).toMatchObject({ source: 'redis', lastError: { code: RegistryErrorCode.ManifestUnreachable } });
      expect(await redisTools()).toEqual(['r1', 'r2']);
    });

    it('memory miss, source not confirmable, Redis miss: no catalogue (-32003); Redis stays empty', async () => {
      service.serve(manifestPath('core'), { status: 503 });
      const catalogue = gateway();
      expect(await catalogue.ensureLoaded()).toBeUndefined();
      expect(await redis.keys()).toEqual([]);
    });
  });

  describe('background refresh', () => {
    it('source confirmable: memory is updated, then Redis (only successful results are stored)', async () => {
      service.serve(manifestPath('core'), { json: manifestOf('a1') });
      const catalogue = gateway();
      await catalogue.refreshAll();
      service.serve(manifestPath('core'), { json: manifestOf('a1', 'a2') });
      clock.advance(TTL);
      const changed = new Promise<void>((resolve) => catalogue.onToolsListChanged(() => resolve()));
      expect(toolsList(catalogue)).toEqual(['a1']); // answered from memory while the refresh runs
      await changed;
      expect(toolsList(catalogue)).toEqual(['a1', 'a2']);
      await eventuallyRedisTools(['a1', 'a2']);
      service.serve(manifestPath('core'), { json: { tools: 'broken' } });
      await catalogue.refreshAll();
      expect(await redisTools()).toEqual(['a1', 'a2']);
    });

    it('source not confirmable, memory hit: memory is kept and never overwritten by older Redis data', async () => {
      await otherReplicaWrites('old1');
      service.serve(manifestPath('core'), { json: manifestOf('new1', 'new2') });
      const catalogue = gateway();
      await catalogue.refreshAll();
      await eventuallyRedisTools(['new1', 'new2']);
      await otherReplicaWrites('old1'); // an older replica writes its (older) view back
      service.serve(manifestPath('core'), { status: 503 });
      await catalogue.refreshAll();
      expect(toolsList(catalogue)).toEqual(['new1', 'new2']);
      expect(catalogue.status().bundles[0].source).toBe('remote');
      expect(await redisTools()).toEqual(['old1']);
    });

    it('source not confirmable, memory miss, Redis hit: warm start from the shared last good snapshot', async () => {
      await otherReplicaWrites('shared1');
      service.serve(manifestPath('core'), { status: 503 });
      const catalogue = gateway();
      await catalogue.refreshAll();
      expect(toolsList(catalogue)).toEqual(['shared1']);
      expect(catalogue.isReady()).toBe(true);
      expect(await redisTools()).toEqual(['shared1']);
    });

    it('source not confirmable, memory miss, Redis miss: -32003, and the next request after the TTL retries', async () => {
      service.serve(manifestPath('core'), { status: 503 });
      const catalogue = gateway();
      await catalogue.refreshAll();
      expect(catalogue.current()).toBeUndefined();
      expect(catalogue.isReady()).toBe(false);
      service.serve(manifestPath('core'), { json: manifestOf('back') });
      expect(catalogue.current()).toBeUndefined(); // within the TTL: no new fetch
      expect(service.fetches(manifestPath('core'))).toBe(1);
      clock.advance(TTL);
      const changed = new Promise<void>((resolve) => catalogue.onToolsListChanged(() => resolve()));
      catalogue.current();
      await changed;
      expect(toolsList(catalogue)).toEqual(['back']);
      await eventuallyRedisTools(['back']);
    });

    it('source not confirmable, memory miss, Redis down: -32003, Redis logged unavailable once, the process carries on', async () => {
      service.serve(manifestPath('core'), { status: 503 });
      const catalogue = gateway();
      await redis.kill();
      await catalogue.refreshAll();
      await catalogue.ensureLoaded();
      await catalogue.ensureLoaded();
      expect(catalogue.current()).toBeUndefined();
      expect(log.of('snapshot_cache_unavailable')).toEqual([`snapshot_cache_unavailable:${RegistryErrorCode.SnapshotCacheUnavailable}`]);
    });
  });

  it('treats malformed Redis contents as a miss with a clear error, never as tools', async () => {
    service.serve(manifestPath('core'), { status: 503 });
    for (const planted of [
      'not json',
      JSON.stringify({
        format: 'toolmesh.route-snapshot.v2',
        routeToken: 'core',
        fetchedAt: 1,
        manifests: [{ serviceDomain: 'http://x', manifest: { tools: 'no' } }],
      }),
    ]) {
      await redis.set(KEY, planted);
      const catalogue = gateway();
      expect(await catalogue.ensureLoaded()).toBeUndefined();
    }
    expect(log.of('snapshot_cache_entry_invalid')).toEqual([
      `snapshot_cache_entry_invalid:${RegistryErrorCode.SnapshotCacheInvalid}`,
      `snapshot_cache_entry_invalid:${RegistryErrorCode.SnapshotCacheInvalid}`,
    ]);
  });
});
