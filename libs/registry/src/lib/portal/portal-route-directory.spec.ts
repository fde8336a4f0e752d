import { DocumentServer } from '@toolmesh/test-peers/document-server';
import { startRedis, type TestRedis } from '@toolmesh/test-peers/redis-server';

import { RedisSnapshotCache } from '../cache/redis-snapshot-cache';
import { LiveCatalogue } from '../catalogue/live-catalogue';
import { RegistryErrorCode } from '../errors';
import { PORTAL_DOCUMENT } from '../model/json-source';
import { HttpJsonSource } from '../sources/http-json-source';
import { capturedLog, FETCH_LIMITS, listedNames, manifestOf, manifestPath, manualClock } from '../test-support/catalogue-fixture';
import { PortalRouteDirectory } from './portal-route-directory';

const PORTAL_KEY = 'gw:portal-registry';

describe('PortalRouteDirectory with Redis (real portal over HTTP, real redis-server)', () => {
  let portal: DocumentServer;
  let services: DocumentServer;
  let redis: TestRedis;
  const caches: RedisSnapshotCache[] = [];
  const log = capturedLog();

  beforeEach(async () => {
    [portal, services, redis] = await Promise.all([new DocumentServer().start(), new DocumentServer().start(), startRedis()]);
    portal.serve('/registry', {
      json: {
        routes: [
          {
            routeToken: 'core',
            enabled: 'Y',
            routeRevision: '1',
            toolServices: [{ serviceDomain: `${services.url}/core`, manifestPath: '/tool-manifest', enabled: 'Y' }],
          },
        ],
      },
    });
    services.serve(manifestPath('core'), { json: manifestOf('c1') });
  });
  afterEach(() => Promise.all([portal.stop(), services.stop(), redis.kill(), ...caches.splice(0).map((cache) => cache.close())]));

  function replica() {
    const clock = manualClock();
    const cache = new RedisSnapshotCache({
      url: redis.url,
      keyPrefix: 'gw',
      portalRegistryKey: PORTAL_KEY,
      commandTimeoutMillis: 500,
      log,
    });
    caches.push(cache);
    const directory = new PortalRouteDirectory({
      source: new HttpJsonSource(new URL(`${portal.url}/registry`), FETCH_LIMITS, PORTAL_DOCUMENT),
      routes: { fetch: FETCH_LIMITS },
      ttlMillis: 10_000,
      cache,
      log,
      now: clock.now,
    });
    const catalogue = new LiveCatalogue({
      directory,
      limits: { maxTools: 10, maxSerializedBytes: 100_000, toolsListPageSize: 1_000 },
      manifestTtlMillis: 60_000,
      forcedRefreshCooldownMillis: 5_000,
      requestedRefreshIntervalMillis: 1_000,
      cache,
      log,
      now: clock.now,
    });
    return { catalogue, directory };
  }

  it('writes a successful portal read to its own key; a cold replica whose portal is down reads it from there', async () => {
    await replica().catalogue.refreshAll();
    while ((await redis.get(PORTAL_KEY)) === undefined) await new Promise((r) => setTimeout(r, 10));
    expect(await redis.keys()).toEqual(expect.arrayContaining([PORTAL_KEY, 'gw:identity:v2:route:core']));

    portal.serve('/registry', { status: 503 });
    const cold = replica();
    await cold.catalogue.refreshAll();
    expect(listedNames(cold.catalogue.current()?.toolsListResult.json)).toEqual(['c1']);
    expect(cold.catalogue.status().portal).toMatchObject({ source: 'redis', lastError: { code: RegistryErrorCode.PortalUnreachable } });
    expect(cold.catalogue.status().bundles[0].source).toBe('remote'); // the manifests themselves were reachable
  });

  it('does not read Redis when routes are in memory, and a malformed Redis copy is a clear miss', async () => {
    const warm = replica();
    await warm.catalogue.refreshAll();
    await redis.set(PORTAL_KEY, JSON.stringify({ routes: 'broken' }));
    portal.serve('/registry', { status: 503 });
    const gets = await redis.getCalls();
    await warm.directory.refresh();
    expect(warm.directory.routes()?.map((route) => route.token)).toEqual(['core']);
    expect(await redis.getCalls()).toBe(gets);

    const cold = replica();
    await cold.catalogue.refreshAll();
    expect(cold.catalogue.current()).toBeUndefined();
    expect(log.of('snapshot_cache_entry_invalid')).toContain(`snapshot_cache_entry_invalid:${RegistryErrorCode.SnapshotCacheInvalid}`);
  });
});
