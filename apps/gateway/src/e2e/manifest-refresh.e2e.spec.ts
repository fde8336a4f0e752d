import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { startTestGateway, type TestGateway } from '../test-support/test-gateway';

/**
 * A 50,000-tool manifest refused on its count was still downloaded and read whole at every refresh
 * (issue 43). Now the refetch is conditional on the manifest's `ETag`: the tool service, a real server on
 * loopback counting what it sends, answers 304 with no body, and the refusal stands without the bytes.
 */
const TOOLS = 50_000;
const manifest = JSON.stringify({
  tools: Array.from({ length: TOOLS }, (_, index) => ({ name: `tool_${index}`, inputSchema: { type: 'object' }, endpoint: `/t/${index}` })),
});
const ETAG = '"manifest-v1"';

let service: Server;
const sent = { full: 0, notModified: 0, fullBytes: 0 };
let gateway: TestGateway;

beforeAll(async () => {
  service = createServer((req, res) => {
    if (req.url !== '/tool-manifest') return void res.writeHead(404).end(); // the routing hint, say
    if (req.headers['if-none-match'] === ETAG) {
      sent.notModified += 1;
      return void res.writeHead(304, { etag: ETAG }).end();
    }
    sent.full += 1;
    sent.fullBytes += manifest.length;
    res.writeHead(200, { 'content-type': 'application/json', etag: ETAG }).end(manifest);
  });
  await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(service.address() as AddressInfo).port}`;
  gateway = await startTestGateway(url, (config) => {
    config.mcp.bundles = [{ name: 'huge', serviceDomain: url, manifestPath: '/tool-manifest' }];
    config.mcp.catalogue.maxManifestBytes = 8 * 1024 * 1024;
    // 3.8 MB on a loaded CI machine took longer than the default 5 s, and the bundle was then unreachable.
    config.mcp.catalogue.manifestTimeoutMillis = 30_000;
    config.mcp.catalogue.requestedRefreshIntervalMillis = 0;
  });
});
afterAll(async () => {
  await gateway?.stop();
  await new Promise((resolve) => service?.close(resolve));
});

const refresh = () => fetch(`${gateway.gateway.managementUrl}/actuator/toolBundles/huge/refresh`, { method: 'POST' });
const bundle = async () =>
  ((await (await fetch(`${gateway.gateway.managementUrl}/actuator/toolBundles`)).json()) as { bundles: Array<Record<string, unknown>> })
    .bundles[0];

/** The first load's outcome: the gateway starts serving before a 3.8 MB manifest is read. */
async function firstLoad(): Promise<Record<string, unknown>> {
  for (let waited = 0; waited < 30_000; waited += 50) {
    const row = await bundle();
    if (row.lastError !== null) return row;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the bundle was never loaded');
}

it('downloads it once: each refresh after is a 304 with no body, and the manifest stays refused on its count', async () => {
  expect(await firstLoad()).toMatchObject({ toolCount: 0, lastError: { code: 'registry.manifest_too_large' } });
  for (let i = 0; i < 3; i += 1) await refresh();
  expect(sent).toEqual({ full: 1, notModified: 3, fullBytes: manifest.length });
  expect(await bundle()).toMatchObject({ toolCount: 0, lastError: { code: 'registry.manifest_too_large' } });
});
