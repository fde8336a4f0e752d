import { type CallToolResult, Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { spawnGateway, writeGatewayConfig } from '@toolmesh/test-peers/gateway-process';
import { type HttpPeer, startHttpPeer } from '@toolmesh/test-peers/peers/http-peer';
import { type SampleToolService, startSampleToolService } from '@toolmesh/test-peers/sample-tool-service';
import type { ServerProcess } from '@toolmesh/test-peers/server-process';

/** How soon readiness must be UP after the gateway serves: the listings take milliseconds on loopback. */
const READY_WITHIN_MILLIS = 5_000;

interface BundleRow {
  bundle: string;
  toolCount: number;
  refusedTools: Array<{ name: string; code: string; message: string }>;
  lastError: { code: string } | null;
}

/**
 * A tool name two bundles offer, at a replica's start (issue 43, item 7): an MCP server that also lists
 * `echo_text`, behind the sample tool service's manifest bundle. The first bundle in configuration order
 * serves the name, the later one's tool is left out and named in toolBundles and the log, and everything
 * else is served: readiness comes up at once instead of staying DOWN while every refresh is refused.
 */
describe('a tool name two bundles offer, at start-up (issue 43, item 7)', () => {
  let sample: SampleToolService;
  let peer: HttpPeer;
  let gateway: ServerProcess & { match: RegExpExecArray };
  let client: Client;
  let readyAfterMillis: number;

  const management = () => gateway.match[2];
  const bundles = async () => ((await (await fetch(`${management()}/actuator/toolBundles`)).json()) as { bundles: BundleRow[] }).bundles;
  const call = (name: string, args: Record<string, unknown>) => client.callTool({ name, arguments: args }) as Promise<CallToolResult>;

  beforeAll(async () => {
    await Promise.all([
      startSampleToolService().then((started) => (sample = started)),
      startHttpPeer().then((started) => (peer = started)),
    ]);
    // The server lists the sample service's `echo_text` besides its own tools, before the gateway starts.
    await fetch(new URL('/__tools?name=echo_text', peer.url), { method: 'POST' });
    const file = writeGatewayConfig(
      `server: { port: 0, managementPort: 0 }
mcp:
  bundles:
    - { name: sample, serviceDomain: "\${SAMPLE_URL}", manifestPath: /tool-manifest }
    - { name: peer, mcpServer: { url: "\${PEER_URL}", era: "2025" } }
`,
    );
    gateway = await spawnGateway(file, { SAMPLE_URL: sample.url, PEER_URL: peer.url });
    const started = Date.now();
    while ((await fetch(`${management()}/actuator/health/readiness`)).status !== 200) {
      if (Date.now() - started > READY_WITHIN_MILLIS) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    readyAfterMillis = Date.now() - started;
    client = new Client({ name: 'collision-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(gateway.match[1])));
  });

  afterAll(async () => {
    await client?.close();
    await gateway?.stop();
    await Promise.all([peer?.stop(), sample?.stop()]);
  });

  it('is ready as soon as the catalogue is loaded', () => {
    expect(readyAfterMillis).toBeLessThan(READY_WITHIN_MILLIS);
  });

  it("lists every bundle's tools, the colliding name once", async () => {
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['customer_lookup', 'echo_text', 'add', 'echo']));
    expect(names.filter((name) => name === 'echo_text')).toHaveLength(1);
  });

  it('calls the non-colliding tools of both bundles, and the colliding name reaches the first bundle', async () => {
    expect((await call('add', { a: 20, b: 22 })).content).toEqual([{ type: 'text', text: '42' }]);
    expect((await call('customer_lookup', { customerId: 'C1001' })).isError).toBeFalsy();
    const echoed = await call('echo_text', { text: 'from the manifest' });
    expect(JSON.stringify(echoed.content)).toContain('from the manifest');
    expect((await sample.calls()).map((recorded) => recorded.tool)).toContain('echo_text');
  });

  it("names the left-out tool, both bundles and what to do in toolBundles and the log, with the collision's code", async () => {
    const rows = await bundles();
    const peerRow = rows.find((row) => row.bundle === 'peer');
    expect(peerRow).toMatchObject({ lastError: null, toolCount: 4 });
    expect(peerRow?.refusedTools).toEqual([
      { name: 'echo_text', code: 'registry.name_collision', message: expect.stringMatching(/bundle sample.*namePrefix/) },
    ]);
    expect(rows.find((row) => row.bundle === 'sample')).toMatchObject({ refusedTools: [], lastError: null });
    await gateway.logged(/event=catalogue_tool_collision code=registry.name_collision tool=echo_text servedBy=sample leftOutOf=peer/);
  });
});
