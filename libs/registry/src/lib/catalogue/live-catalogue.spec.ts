import { canonicalDefinition, CATALOGUE_ETAG_META_KEY, DEFINITION_HASH_META_KEY, definitionHash } from '@toolmesh/protocol';
import { DocumentServer } from '@toolmesh/test-peers/document-server';

import { RegistryErrorCode } from '../errors';
import { PORTAL_DOCUMENT } from '../model/json-source';
import type { RouteConfig } from '../model/route';
import { PortalRouteDirectory } from '../portal/portal-route-directory';
import { StaticRouteDirectory } from '../portal/route-directory';
import { FileJsonSource } from '../sources/file-json-source';
import { HttpJsonSource } from '../sources/http-json-source';
import {
  capturedLog,
  FETCH_LIMITS,
  listedNames,
  manifestOf,
  manifestPath,
  manualClock,
  routeOn,
  SCHEMA,
} from '../test-support/catalogue-fixture';
import { LiveCatalogue, type LiveCatalogueOptions } from './live-catalogue';

const TTL = 60_000;
const limits = { maxTools: 100, maxSerializedBytes: 1_000_000, toolsListPageSize: 1_000 };

describe('LiveCatalogue over real HTTP tool services', () => {
  let server: DocumentServer;
  let clock: ReturnType<typeof manualClock>;
  let log: ReturnType<typeof capturedLog>;

  beforeEach(async () => {
    server = await new DocumentServer().start();
    clock = manualClock();
    log = capturedLog();
  });
  afterEach(() => server.stop());

  const catalogueOf = (routes: RouteConfig[], extra: Partial<LiveCatalogueOptions> = {}) =>
    new LiveCatalogue({
      directory: new StaticRouteDirectory(routes),
      limits,
      manifestTtlMillis: TTL,
      forcedRefreshCooldownMillis: 5_000,
      requestedRefreshIntervalMillis: 1_000,
      log,
      now: clock.now,
      ...extra,
    });
  const names = (catalogue: LiveCatalogue) => listedNames(catalogue.current()?.toolsListResult.json);

  /** A portal registry served by `server` at /portal, listing the given routes of `server`. */
  function portal(
    routes: Array<{ token: string; enabled?: 'Y' | 'N'; revision?: string; serviceDomain?: string; serviceEnabled?: 'Y' | 'N' }>,
  ) {
    server.serve('/portal', {
      json: {
        routes: routes.map((r) => ({
          routeToken: r.token,
          enabled: r.enabled ?? 'Y',
          routeRevision: r.revision ?? '1',
          toolServices: [
            {
              serviceDomain: r.serviceDomain ?? `${server.url}/${r.token}`,
              manifestPath: '/tool-manifest',
              enabled: r.serviceEnabled ?? 'Y',
            },
          ],
        })),
      },
    });
  }
  const portalCatalogue = () =>
    catalogueOf([], {
      directory: new PortalRouteDirectory({
        source: new HttpJsonSource(new URL(`${server.url}/portal`), FETCH_LIMITS, PORTAL_DOCUMENT),
        routes: { fetch: FETCH_LIMITS },
        ttlMillis: 10_000,
        log,
        now: clock.now,
      }),
    });

  it('merges routes into one generation with a pre-serialized tools/list result', async () => {
    server.serve(manifestPath('a'), { json: manifestOf('a1', 'a2') }).serve(manifestPath('b'), { json: manifestOf('b1') });
    const generation = await catalogueOf([routeOn(server, 'a'), routeOn(server, 'b')]).ensureLoaded();
    // Each tool with the hash of its definition (issue 46), the list with its ETag beside it.
    const tools = ['a1', 'a2', 'b1'].map((name) => ({ name, inputSchema: SCHEMA }));
    expect(JSON.parse(generation?.toolsListResult.json ?? '')).toEqual({
      tools: tools.map((tool) => ({ ...tool, _meta: { [DEFINITION_HASH_META_KEY]: definitionHash(canonicalDefinition(tool)) } })),
    });
    expect(generation?.toolsListResult.meta).toEqual({ [CATALOGUE_ETAG_META_KEY]: generation?.etag });
    expect(generation?.tools.get('b1')?.endpoint.href).toBe(`${server.url}/b/tools/b1`);
  });

  it("keeps the list's ETag while the list stays the same, and changes it with a description (issue 46)", async () => {
    server.serve(manifestPath('a'), { json: manifestOf('a1') });
    const catalogue = catalogueOf([routeOn(server, 'a')]);
    const first = await catalogue.refreshAll();
    server.serve(manifestPath('a'), { json: manifestOf('a1') });
    const same = await catalogue.refreshAll();
    expect(same?.etag).toBe(first?.etag);
    const described = manifestOf('a1') as { tools: Array<Record<string, unknown>> };
    server.serve(manifestPath('a'), { json: { ...described, tools: [{ ...described.tools[0], description: 'changed' }] } });
    const changed = await catalogue.refreshAll();
    expect(changed?.etag).not.toBe(first?.etag);
    expect(changed?.listDigest).toBe(changed?.etag);
  });

  it('shares one manifest fetch among 50 concurrent requests after the TTL expired, and answers all 50 from memory', async () => {
    server.serve(manifestPath('a'), { json: manifestOf('a1') });
    const catalogue = catalogueOf([routeOn(server, 'a')]);
    const first = await catalogue.refreshAll();
    clock.advance(TTL);
    server.delayMillis = 50;
    server.serve(manifestPath('a'), { json: manifestOf('a1', 'a2') });
    const changed = new Promise<void>((resolve) => catalogue.onToolsListChanged(() => resolve()));
    const answers = Array.from({ length: 50 }, () => catalogue.current());
    expect(answers.every((generation) => generation === first)).toBe(true);
    await changed;
    expect(server.fetches(manifestPath('a'))).toBe(2);
    expect(names(catalogue)).toEqual(['a1', 'a2']);
  });

  it('never deletes tools on a failed fetch; a successful manifest that omits a tool removes it', async () => {
    server.serve(manifestPath('a'), { json: manifestOf('x', 'y') });
    const catalogue = catalogueOf([routeOn(server, 'a')]);
    await catalogue.refreshAll();
    for (const broken of [{ status: 503 }, 'hang-up', { json: { tools: 'broken' } }] as const) {
      server.serve(manifestPath('a'), broken);
      await catalogue.refreshAll();
      expect(names(catalogue)).toEqual(['x', 'y']);
    }
    server.serve(manifestPath('a'), { json: manifestOf('x') });
    await catalogue.refreshAll();
    expect(names(catalogue)).toEqual(['x']);
    expect(log.of('route_refresh_failed')).toEqual([
      `route_refresh_failed:${RegistryErrorCode.ManifestUnreachable}`,
      `route_refresh_failed:${RegistryErrorCode.ManifestUnreachable}`,
      `route_refresh_failed:${RegistryErrorCode.ManifestInvalid}`,
    ]);
  });

  it('serves a name two routes offer from the first in route order, every other tool of both, and says so once', async () => {
    server.serve(manifestPath('a'), { json: manifestOf('a1') }).serve(manifestPath('b'), { json: manifestOf('shared', 'b1') });
    const catalogue = catalogueOf([routeOn(server, 'a'), routeOn(server, 'b')]);
    await catalogue.refreshAll();
    expect(names(catalogue)).toEqual(['a1', 'shared', 'b1']);

    // The first route takes the name whatever the catalogue held before, as a replica starting now would.
    server.serve(manifestPath('a'), { json: manifestOf('a1', 'shared') });
    await catalogue.refreshAll();
    await catalogue.refreshAll();
    expect(catalogue.isReady()).toBe(true);
    expect(names(catalogue)).toEqual(['a1', 'shared', 'b1']);
    expect(catalogue.current()?.tools.get('shared')?.routeToken).toBe('a');
    expect(log.of('catalogue_tool_collision')).toEqual([`catalogue_tool_collision:${RegistryErrorCode.NameCollision}`]);
    expect(log.of('catalogue_refresh_rejected')).toEqual([]);
    const [first, second] = catalogue.status().bundles;
    expect(first).toMatchObject({ bundle: 'a', toolCount: 2, refusedTools: [], lastError: null });
    expect(second).toMatchObject({
      bundle: 'b',
      toolCount: 1,
      refusedTools: [
        { name: 'shared', code: RegistryErrorCode.NameCollision, message: expect.stringContaining('bundle a, listed before bundle b') },
      ],
      lastError: null,
    });

    server.serve(manifestPath('b'), { json: manifestOf('b1') });
    await catalogue.refreshAll();
    expect(catalogue.status().bundles[1]).toMatchObject({ toolCount: 1, refusedTools: [] });
  });

  it('keeps the old generation when a refresh would exceed the caps', async () => {
    server.serve(manifestPath('a'), { json: manifestOf('a1', 'a2') }).serve(manifestPath('b'), { json: manifestOf('b1') });
    const catalogue = catalogueOf([routeOn(server, 'a'), routeOn(server, 'b')], {
      limits: { maxTools: 3, maxSerializedBytes: 1_000_000, toolsListPageSize: 1_000 },
    });
    const first = await catalogue.refreshAll();

    server.serve(manifestPath('b'), { json: manifestOf('b1', 'b2') });
    await catalogue.refreshAll();
    expect(catalogue.current()).toBe(first);
    expect(log.of('catalogue_refresh_rejected')).toEqual([`catalogue_refresh_rejected:${RegistryErrorCode.CatalogueTooLarge}`]);
    expect(catalogue.status().bundles.map((b) => [b.bundle, b.toolCount, b.lastError?.code])).toEqual([
      ['a', 2, RegistryErrorCode.CatalogueTooLarge],
      ['b', 1, RegistryErrorCode.CatalogueTooLarge],
    ]);
  });

  it('keeps the same generation object when nothing changed, and announces only changed tool lists', async () => {
    server.serve(manifestPath('a'), { json: manifestOf('x') });
    const catalogue = catalogueOf([routeOn(server, 'a')]);
    const announced: number[] = [];
    catalogue.onToolsListChanged((generation) => announced.push(generation.size));
    const first = await catalogue.refreshAll();
    expect(await catalogue.refreshAll()).toBe(first);
    server.serve(manifestPath('a'), { json: manifestOf('x', 'y') });
    await catalogue.refreshAll();
    expect(announced).toEqual([1, 2]);
  });

  it('refreshes at most once per route per cooldown for unknown names', async () => {
    server.serve(manifestPath('a'), { json: manifestOf('x') });
    const catalogue = catalogueOf([routeOn(server, 'a')]);
    await catalogue.ensureLoaded();
    await catalogue.refreshForUnknownTool('nope');
    await catalogue.refreshForUnknownTool('nope');
    clock.advance(4_999);
    await catalogue.refreshForUnknownTool('nope');
    expect(server.fetches(manifestPath('a'))).toBe(2);
    clock.advance(1);
    server.serve(manifestPath('a'), { json: manifestOf('x', 'nope') });
    expect((await catalogue.refreshForUnknownTool('nope'))?.tools.has('nope')).toBe(true);
    expect(server.fetches(manifestPath('a'))).toBe(3);
  });

  it('refreshes a route on request at once, whatever its TTL, and bounds such requests per route', async () => {
    server.serve(manifestPath('a'), { json: manifestOf('a1') }).serve(manifestPath('b'), { json: manifestOf('b1') });
    const catalogue = catalogueOf([routeOn(server, 'a'), routeOn(server, 'b')]);
    await catalogue.refreshAll();
    server.serve(manifestPath('a'), { json: manifestOf('a1', 'a2') });
    const changed = new Promise<void>((resolve) => catalogue.onToolsListChanged(() => resolve()));
    expect(await catalogue.requestRefresh('a')).toMatchObject({
      outcome: 'refreshed',
      failed: false,
      bundle: { bundle: 'a', source: 'remote', toolCount: 2 },
    });
    await changed;
    expect(names(catalogue)).toEqual(['a1', 'a2', 'b1']);
    expect([server.fetches(manifestPath('a')), server.fetches(manifestPath('b'))]).toEqual([2, 1]); // that route only

    expect(await catalogue.requestRefresh('a')).toEqual({ outcome: 'too-soon', retryAfterMillis: 1_000 });
    expect((await catalogue.requestRefresh('b')).outcome).toBe('refreshed'); // the bound is per route
    clock.advance(1_000);
    server.serve(manifestPath('a'), { status: 503 });
    expect(await catalogue.requestRefresh('a')).toMatchObject({
      outcome: 'refreshed',
      failed: true,
      bundle: { source: 'remote', lastError: { code: RegistryErrorCode.ManifestUnreachable } },
    });
    expect(await catalogue.requestRefresh('nope')).toEqual({ outcome: 'unknown-route' });
    expect(log.of('catalogue_refresh_requested')).toHaveLength(3);
  });

  it('runs a requested refresh after the refresh in flight, and lets requests arriving before it starts share it', async () => {
    server.serve(manifestPath('a'), { json: manifestOf('a1') });
    const catalogue = catalogueOf([routeOn(server, 'a')]);
    await catalogue.refreshAll();
    server.hold();
    const running = catalogue.refreshAll(); // read before the service's change: a request must not settle for it
    while (server.fetches(manifestPath('a')) < 2) await new Promise((resolve) => setTimeout(resolve, 5));
    const requests = [catalogue.requestRefresh('a'), catalogue.requestRefresh('a'), catalogue.requestRefresh('a')];
    expect(new Set(requests).size).toBe(1);
    server.release();
    await running;
    expect((await requests[0]).outcome).toBe('refreshed');
    expect(server.fetches(manifestPath('a'))).toBe(3); // the running one, then one more for all three requests
  });

  it('refreshes a route whose tool answered 404/410 once per cooldown, in the background', async () => {
    server.serve(manifestPath('a'), { json: manifestOf('gone', 'kept') }).serve(manifestPath('b'), { json: manifestOf('b1') });
    const catalogue = catalogueOf([routeOn(server, 'a'), routeOn(server, 'b')]);
    const gone = (await catalogue.refreshAll())?.tools.get('gone');
    server.serve(manifestPath('a'), { json: manifestOf('kept') });
    const changed = new Promise<void>((resolve) => catalogue.onToolsListChanged(() => resolve()));
    if (gone) for (let i = 0; i < 10; i++) catalogue.reportStaleTool(gone);
    await changed;
    expect(names(catalogue)).toEqual(['kept', 'b1']);
    expect([server.fetches(manifestPath('a')), server.fetches(manifestPath('b'))]).toEqual([2, 1]);
  });

  it('uses the local fallback only after the first remote failure, and never over a remote success', async () => {
    const fallback = new FileJsonSource(`${__dirname}/../../../../../config/local-core-tools-manifest-sample-v1.json`);
    server.serve(manifestPath('a'), { status: 503 });
    const catalogue = catalogueOf([routeOn(server, 'a', { fallback })]);
    await catalogue.refreshAll();
    expect(names(catalogue)).toContain('echo_text');
    expect(catalogue.status().bundles[0]).toMatchObject({
      source: 'local-fallback',
      degraded: true,
      lastError: { code: RegistryErrorCode.ManifestUnreachable },
    });
    await catalogue.refreshAll(); // still down: degraded is logged once, on entering
    expect(log.of('route_degraded')).toEqual(['route_degraded']);

    server.serve(manifestPath('a'), { json: manifestOf('remote_tool') });
    await catalogue.refreshAll();
    expect(names(catalogue)).toEqual(['remote_tool']);
    expect(catalogue.status().bundles[0]).toMatchObject({ source: 'remote', degraded: false });
    expect(log.of('route_recovered')).toEqual(['route_recovered']);
    server.serve(manifestPath('a'), { status: 503 });
    await catalogue.refreshAll();
    expect(names(catalogue)).toEqual(['remote_tool']);
    expect(catalogue.status().bundles[0].source).toBe('remote');

    const healthy = catalogueOf([routeOn(server, 'b', { fallback })]);
    server.serve(manifestPath('b'), { json: manifestOf('b1') });
    await healthy.refreshAll();
    expect(names(healthy)).toEqual(['b1']);
  });

  describe('with a portal registry', () => {
    it('drops a disabled or vanished route at once, and keeps a route whose services are all disabled with no tools', async () => {
      server
        .serve(manifestPath('a'), { json: manifestOf('a1') })
        .serve(manifestPath('b'), { json: manifestOf('b1') })
        .serve(manifestPath('c'), { json: manifestOf('c1') });
      portal([{ token: 'a' }, { token: 'b' }, { token: 'c' }]);
      const catalogue = portalCatalogue();
      await catalogue.refreshAll();
      expect(names(catalogue)).toEqual(['a1', 'b1', 'c1']);

      portal([
        { token: 'a', enabled: 'N' },
        { token: 'c', serviceEnabled: 'N' },
      ]);
      clock.advance(10_000); // the portal's TTL; the manifests' TTL is still running
      const changed = new Promise<void>((resolve) => catalogue.onToolsListChanged(() => resolve()));
      catalogue.current();
      await changed;
      expect(names(catalogue)).toEqual([]);
      expect(catalogue.status().bundles.map((b) => [b.bundle, b.source, b.toolCount])).toEqual([['c', 'remote', 0]]);
      expect(log.of('route_dropped')).toEqual(['route_dropped', 'route_dropped']);
      expect(catalogue.isReady()).toBe(true);
    });

    it('refetches a route whose routeRevision changed at once, while its manifest TTL is still running', async () => {
      server.serve(manifestPath('a'), { json: manifestOf('a1') }).serve(manifestPath('b'), { json: manifestOf('b1') });
      portal([
        { token: 'a', revision: '1' },
        { token: 'b', revision: '1' },
      ]);
      const catalogue = portalCatalogue();
      await catalogue.refreshAll();
      server.serve(manifestPath('a'), { json: manifestOf('a1', 'a2') }).serve(manifestPath('b'), { json: manifestOf('b1', 'b2') });
      portal([
        { token: 'a', revision: '2' },
        { token: 'b', revision: '1' },
      ]);
      clock.advance(10_000); // the portal's TTL, not the manifests'
      const changed = new Promise<void>((resolve) => catalogue.onToolsListChanged(() => resolve()));
      catalogue.current();
      await changed;
      expect(names(catalogue)).toEqual(['a1', 'a2', 'b1']);
      expect([server.fetches(manifestPath('a')), server.fetches(manifestPath('b'))]).toEqual([2, 1]);
    });

    it('keeps the previous good snapshot of a route whose endpoint turns bad; a new bad route gets an empty list', async () => {
      server.serve(manifestPath('a'), { json: manifestOf('a1') });
      portal([{ token: 'a' }]);
      const catalogue = portalCatalogue();
      await catalogue.refreshAll();
      portal([
        { token: 'a', revision: '2', serviceDomain: 'ftp://tools.internal' },
        { token: 'n', serviceDomain: 'not a url' },
      ]);
      clock.advance(10_000);
      await catalogue.refreshAll();
      expect(names(catalogue)).toEqual(['a1']);
      expect(catalogue.status().bundles.map((b) => [b.bundle, b.source, b.toolCount, b.lastError?.code])).toEqual([
        ['a', 'remote', 1, RegistryErrorCode.RouteEndpointInvalid],
        ['n', 'isolated', 0, RegistryErrorCode.RouteEndpointInvalid],
      ]);
    });

    it('keeps its routes when the portal fails or answers a malformed registry, with a clear error', async () => {
      server.serve(manifestPath('a'), { json: manifestOf('a1') });
      portal([{ token: 'a' }]);
      const catalogue = portalCatalogue();
      await catalogue.refreshAll();
      server.serve('/portal', { json: { routes: [{ routeToken: 'a', enabled: 'maybe' }] } });
      clock.advance(10_000);
      await catalogue.refreshAll();
      server.serve('/portal', { status: 500 });
      clock.advance(10_000);
      await catalogue.refreshAll();
      expect(names(catalogue)).toEqual(['a1']);
      expect(log.of('portal_registry_refresh_failed')).toEqual([
        `portal_registry_refresh_failed:${RegistryErrorCode.PortalInvalid}`,
        `portal_registry_refresh_failed:${RegistryErrorCode.PortalUnreachable}`,
      ]);
      expect(catalogue.status().portal).toMatchObject({ source: 'remote', lastError: { code: RegistryErrorCode.PortalUnreachable } });
    });
  });

  describe('readiness', () => {
    it('is DOWN before the first discovery attempt ends, UP with a usable snapshot, DOWN when nothing usable exists', async () => {
      server.serve(manifestPath('a'), { json: manifestOf() });
      const healthy = catalogueOf([routeOn(server, 'a')]);
      expect(healthy.isReady()).toBe(false);
      const loading = healthy.refreshAll();
      expect(healthy.isReady()).toBe(false);
      await loading;
      expect(healthy.isReady()).toBe(true); // an empty list from a healthy manifest is usable

      server.serve(manifestPath('b'), { status: 503 });
      const broken = catalogueOf([routeOn(server, 'b')]);
      await broken.refreshAll();
      expect(broken.isReady()).toBe(false);
      expect(broken.current()).toBeUndefined();
      expect(broken.status().bundles[0]).toMatchObject({
        source: 'none',
        toolCount: 0,
        lastSuccess: null,
        lastError: { code: RegistryErrorCode.ManifestUnreachable },
      });
    });
  });
});
