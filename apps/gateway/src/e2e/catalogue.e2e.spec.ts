import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { CATALOGUE_ETAG_META_KEY } from '@toolmesh/protocol';
import { DocumentServer } from '@toolmesh/test-peers/document-server';
import { type SampleToolService, startSampleToolService } from '@toolmesh/test-peers/sample-tool-service';
import { REPO_ROOT } from '@toolmesh/test-peers/server-process';

import { startTestGateway, type TestGateway } from '../test-support/test-gateway';

const schema = { type: 'object' };
const manifestOf = (...names: string[]) => ({
  revision: names.join('+'),
  tools: names.map((name) => ({ name, inputSchema: schema, endpoint: `/tools/${name}` })),
});
const FALLBACK = path.join(REPO_ROOT, 'config/local-core-tools-manifest-sample-v1.json');

interface BundleRow {
  bundle: string;
  source: string;
  toolCount: number;
  manifestRevision: string | null;
  manifestHash: string | null;
  ageSeconds: number | null;
  lastSuccess: string | null;
  lastError: { code: string } | null;
}
interface Status {
  ready: boolean;
  bundles: BundleRow[];
}

/** The catalogue seen from outside the gateway: MCP requests, the management port, the sample tool service. */
describe('gateway catalogue (real tool services, in-process gateway)', () => {
  let tools: SampleToolService;
  let gw: TestGateway | undefined;
  beforeAll(async () => {
    tools = await startSampleToolService();
  });
  afterAll(() => tools.stop());
  afterEach(async () => {
    await gw?.stop();
    gw = undefined;
  });

  const management = async (path: string) => {
    const res = await fetch(`${gw?.gateway.managementUrl}${path}`);
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const status = async () => (await management('/actuator/toolBundles')).body as unknown as Status;
  const readiness = async () => (await management('/actuator/health/readiness')).status;
  /** Waits for the startup preload to end, as a kubelet polling readiness would (no timing asserted). */
  async function untilDiscoveryEnded(): Promise<void> {
    while ((await status()).bundles.every((row) => row.lastSuccess === null && row.lastError === null))
      await new Promise((r) => setTimeout(r, 10));
  }

  it('50 concurrent tools/list after the TTL expired cause exactly one manifest fetch, and all 50 get the list', async () => {
    let now = 1_800_000_000_000;
    gw = await startTestGateway(tools.url, () => undefined, { now: () => now });
    await gw.rpc('tools/list');
    await untilDiscoveryEnded();
    const before = (await tools.stats()).manifestFetches;
    now += 60_000; // mcp.catalogue.refreshTtlMillis
    const replies = await Promise.all(Array.from({ length: 50 }, () => gw?.rpc('tools/list')));
    expect(replies.every((reply) => (reply?.result?.tools as unknown[]).length > 5)).toBe(true);
    while ((await status()).bundles[0].lastSuccess === new Date(now - 60_000).toISOString()) await new Promise((r) => setTimeout(r, 10));
    expect((await tools.stats()).manifestFetches).toBe(before + 1);
  });

  it('a tool answering 404 fails the call and starts one best-effort refresh of its route (same cooldown)', async () => {
    gw = await startTestGateway(tools.url);
    await gw.rpc('tools/list');
    const before = (await tools.stats()).manifestFetches;
    for (let i = 0; i < 5; i++) expect((await gw.rpc('tools/call', { name: 'retired_tool', arguments: {} })).result?.isError).toBe(true);
    while ((await tools.stats()).manifestFetches === before) await new Promise((r) => setTimeout(r, 10));
    expect((await tools.stats()).manifestFetches).toBe(before + 1);
    expect(gw.logs().match(/event=catalogue_refresh_forced reason=stale_tool/g)).toHaveLength(1);
  });

  it("serves the routes of a file: portal registry, with the portal's state in toolBundles", async () => {
    const registry = path.join(mkdtempSync(path.join(tmpdir(), 'gw-portal-')), 'toolserver-info.json');
    const toolServices = [{ serviceDomain: tools.url, manifestPath: '/tool-manifest', enabled: 'Y' }];
    writeFileSync(
      registry,
      JSON.stringify({
        routes: [
          { routeToken: 'core', enabled: 'Y', routeRevision: '3', toolServices },
          { routeToken: 'off', enabled: 'N', routeRevision: '1', toolServices },
        ],
      }),
    );
    gw = await startTestGateway(tools.url, (config) => (config.mcp.portal.registryUrl = `file:${registry}`));
    const listed = (await gw.rpc('tools/list')).result?.tools as Array<{ name: string }>;
    expect(listed.map((tool) => tool.name)).toContain('customer_lookup');
    expect((await gw.rpc('tools/call', { name: 'echo_text', arguments: { text: 'via the portal' } })).result?.content?.[0].text).toBe(
      'via the portal',
    );
    const body = (await management('/actuator/toolBundles')).body as { portal: { source: string }; bundles: BundleRow[] };
    expect(body.portal).toMatchObject({ source: 'remote', lastError: null });
    expect(body.bundles.map((row) => [row.bundle, row.source])).toEqual([['core', 'remote']]);
  });

  describe('readiness and /actuator/toolBundles', () => {
    let service: DocumentServer;
    beforeEach(async () => {
      service = await new DocumentServer().start();
    });
    afterEach(() => service.stop());
    const bundleOn = (name: string, extra: object = {}) => ({
      name,
      serviceDomain: `${service.url}/${name}`,
      manifestPath: '/tool-manifest',
      ...extra,
    });

    it('announces a changed tool list to onToolsListChanged listeners, and only a changed one', async () => {
      let now = 1_800_000_000_000;
      service.serve('/s/tool-manifest', { json: manifestOf('t1') });
      gw = await startTestGateway(service.url, (config) => (config.mcp.bundles = [bundleOn('s')]), { now: () => now });
      await gw.rpc('tools/list');
      const announced: string[][] = [];
      gw.gateway.onToolsListChanged((generation) => announced.push([...generation.tools.keys()]));
      expect((await gw.rpc('tools/call', { name: 't2', arguments: {} })).error?.code).toBe(-32001); // forced refresh, same list
      service.serve('/s/tool-manifest', { json: manifestOf('t1', 't2') });
      now += 5_000; // mcp.catalogue.forcedRefreshCooldownMillis
      expect((await gw.rpc('tools/call', { name: 't2', arguments: {} })).error).toBeUndefined(); // found after the refresh
      expect(announced).toEqual([['t1', 't2']]);
    });

    it('is DOWN before the first discovery attempt ends, then UP with an empty list from a healthy manifest', async () => {
      service.serve('/empty/tool-manifest', { json: manifestOf() }).hold();
      gw = await startTestGateway(service.url, (config) => (config.mcp.bundles = [bundleOn('empty')]));
      expect(await readiness()).toBe(503);
      expect((await status()).bundles).toEqual([
        expect.objectContaining({ bundle: 'empty', source: 'none', lastSuccess: null, lastError: null }),
      ]);
      service.release();
      await untilDiscoveryEnded();
      expect(await readiness()).toBe(200);
      expect((await gw.rpc('tools/list')).result).toEqual({ tools: [], _meta: { [CATALOGUE_ETAG_META_KEY]: expect.any(String) } });
      expect((await status()).bundles[0]).toMatchObject({ source: 'remote', toolCount: 0, manifestRevision: '', lastError: null });
    });

    it("is DOWN when nothing usable exists (tools/list -32003), and shows each bundle's source and error", async () => {
      service.serve('/up/tool-manifest', { json: manifestOf('up1', 'up2') }).serve('/down/tool-manifest', { status: 503 });
      gw = await startTestGateway(service.url, (config) => (config.mcp.bundles = [bundleOn('down')]));
      await untilDiscoveryEnded();
      expect(await readiness()).toBe(503);
      expect((await gw.rpc('tools/list')).error?.code).toBe(-32003);
      await gw.stop();

      gw = await startTestGateway(
        service.url,
        (config) => (config.mcp.bundles = [bundleOn('up'), bundleOn('down'), bundleOn('local', { fallbackManifestFile: FALLBACK })]),
      );
      await untilDiscoveryEnded();
      while ((await status()).bundles.some((row) => row.lastSuccess === null && row.lastError === null))
        await new Promise((r) => setTimeout(r, 10));
      expect(await readiness()).toBe(200);
      const rows = (await status()).bundles;
      expect(rows.map((row) => [row.bundle, row.source, row.lastError?.code ?? null])).toEqual([
        ['up', 'remote', null],
        ['down', 'none', 'registry.manifest_unreachable'],
        ['local', 'local-fallback', 'registry.manifest_unreachable'],
      ]);
      expect(rows[0]).toMatchObject({
        toolCount: 2,
        manifestRevision: 'up1+up2',
        manifestHash: expect.stringMatching(/^[0-9a-f]{16}$/),
      });
      // Whole seconds since this run's fetch: 0 or, on a loaded machine, a little more; never absent.
      expect(rows[0].ageSeconds).toEqual(expect.any(Number));
      expect(rows[0].ageSeconds).toBeLessThan(60);
      expect(rows[2].toolCount).toBeGreaterThan(5);
    });
  });

  describe('routing hints in initialize', () => {
    const initialize = async () =>
      (await gw?.rpc('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } }))
        ?.result as Record<string, unknown>;

    it("carries _meta.toolServers from each route's /tool-service-manifest when the lookup works", async () => {
      gw = await startTestGateway(tools.url);
      await gw.rpc('tools/list');
      let result = await initialize();
      while (result._meta === undefined) {
        await new Promise((r) => setTimeout(r, 10));
        result = await initialize();
      }
      const hint = (await (await fetch(`${tools.url}/tool-service-manifest`)).json()) as unknown;
      expect(result._meta).toEqual({ toolServers: [{ route: 'sample', toolServices: [hint] }] });
    });

    it('omits them, and initialize still succeeds, when the lookup fails', async () => {
      const service = await new DocumentServer().start();
      service.serve('/s/tool-manifest', { json: manifestOf('t1') }).serve('/s/tool-service-manifest', { status: 500 });
      gw = await startTestGateway(
        service.url,
        (config) => (config.mcp.bundles = [{ name: 's', serviceDomain: `${service.url}/s`, manifestPath: '/tool-manifest' }]),
      );
      while (service.fetches('/s/tool-service-manifest') === 0) await new Promise((r) => setTimeout(r, 10));
      const result = await initialize();
      expect(result.protocolVersion).toBe('2025-11-25');
      expect(result).not.toHaveProperty('_meta');
      while (!gw.logs().includes('event=routing_hint_refresh_failed')) await new Promise((r) => setTimeout(r, 10));
      expect(gw.logs()).toContain('code=registry.routing_hint_unavailable');
      await service.stop();
    });
  });
});
