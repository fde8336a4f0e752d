import type { Server } from 'node:http';

import { type CallToolResult, Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { freePort } from '@toolmesh/test-peers/free-port';
import { spawnGateway, writeGatewayConfig } from '@toolmesh/test-peers/gateway-process';
import { type Everything, startEverything, startStalledServer } from '@toolmesh/test-peers/mcp-servers';
import { type HttpPeer, type PeerRequest, startHttpPeer } from '@toolmesh/test-peers/peers/http-peer';
import { until } from '@toolmesh/test-peers/process-table';
import { startRedis, type TestRedis } from '@toolmesh/test-peers/redis-server';
import { type SampleToolService, startSampleToolService } from '@toolmesh/test-peers/sample-tool-service';
import type { ServerProcess } from '@toolmesh/test-peers/server-process';

import type { GatewayConfig } from '../config/gateway-config';
import { startTestGateway, type TestGateway } from '../test-support/test-gateway';

/**
 * MCP servers as bundles' sources (issue 28), the built gateway in front of real servers on loopback:
 * server-everything from npm in its Streamable HTTP mode (2025), the SDK's server peer (pinned to 2025,
 * with sessions), the SDK v2 server at 2026-07-28 (its `createMcpHandler`), our own gateway as a
 * 2026-07-28 server, one that never answers, and one killed while a call runs. Clients are the SDK v2
 * client and raw HTTP (the other clients: mcp-upstream-clients.e2e.spec.ts).
 */
const PEER_TOKEN = 'Bearer peer-secret';
/** Every header the gateway may send an MCP server: HTTP's and MCP's own, the bundle's credential, the correlation ids. */
const UPSTREAM_HEADERS = new Set([
  'host',
  'connection',
  'content-type',
  'content-length',
  'accept',
  'last-event-id',
  'authorization',
  'mcp-session-id',
  'mcp-protocol-version',
  'guid',
  'x-request-id',
  'traceparent',
  'tracestate',
]);

async function connectedClient(url: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'federation-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return client;
}

interface BundleRow {
  bundle: string;
  source: string;
  toolCount: number;
  lastError: { code: string; message: string } | null;
}

describe('MCP servers as a tool source (issue 28)', () => {
  let everything: Everything;
  let sdkPeer: HttpPeer;
  let sdkPort: number;
  let modernSdkPeer: HttpPeer;
  let doomed: HttpPeer;
  let stalled: { url: string; server: Server };
  let sampleService: SampleToolService;
  let upstreamGateway: TestGateway;
  let front: ServerProcess & { match: RegExpExecArray };
  let client: Client;

  const frontUrl = () => front.match[1];
  const bundles = async () => ((await (await fetch(`${front.match[2]}/actuator/toolBundles`)).json()) as { bundles: BundleRow[] }).bundles;
  const call = (name: string, args: Record<string, unknown> = {}) => client.callTool({ name, arguments: args }) as Promise<CallToolResult>;
  const textOf = (result: CallToolResult) => (result.content as Array<{ text?: string }>).map((block) => block.text ?? '').join('');

  beforeAll(async () => {
    sdkPort = await freePort();
    // Each kept as soon as it is up, so that afterAll stops the ones that started when another did not.
    await Promise.all([
      startEverything().then((started) => (everything = started)),
      startHttpPeer([`--port=${sdkPort}`]).then((started) => (sdkPeer = started)),
      startHttpPeer(['--modern']).then((started) => (modernSdkPeer = started)),
      startHttpPeer().then((started) => (doomed = started)),
      startStalledServer().then((started) => (stalled = started)),
      startSampleToolService().then((started) => (sampleService = started)),
    ]);
    upstreamGateway = await startTestGateway(sampleService.url);
    const file = writeGatewayConfig(
      `server: { port: 0, managementPort: 0 }
mcp:
  shutdownDrainMillis: 1000
  catalogue: { manifestTimeoutMillis: 8000 }
  bundles:
    - { name: everything, namePrefix: ev_, mcpServer: { url: "\${EVERYTHING_URL}" } }
    - { name: sdk, namePrefix: sdk_, mcpServer: { url: "\${SDK_URL}", era: "2025", headers: { Authorization: { env: SDK_TOKEN } } } }
    - { name: gateway, namePrefix: gw_, mcpServer: { url: "\${GATEWAY_URL}" } }
    - { name: sdk2026, namePrefix: s26_, mcpServer: { url: "\${MODERN_SDK_URL}" } }
    - { name: stalled, namePrefix: st_, mcpServer: { url: "\${STALLED_URL}" } }
    - { name: doomed, namePrefix: dm_, mcpServer: { url: "\${DOOMED_URL}", era: "2025" } }
`,
    );
    front = await spawnGateway(file, {
      EVERYTHING_URL: everything.url,
      SDK_URL: sdkPeer.url,
      SDK_TOKEN: PEER_TOKEN,
      GATEWAY_URL: upstreamGateway.url,
      MODERN_SDK_URL: modernSdkPeer.url,
      STALLED_URL: stalled.url,
      DOOMED_URL: doomed.url,
    });
    client = await connectedClient(frontUrl(), { authorization: 'Bearer caller-token', guid: 'federation-guid-1' });
  }, 120_000);

  afterAll(async () => {
    await client?.close();
    await front?.stop();
    stalled?.server.closeAllConnections();
    stalled?.server.close();
    await Promise.all([everything?.stop(), sdkPeer?.stop(), modernSdkPeer?.stop(), doomed?.stop(), upstreamGateway?.stop()]);
    await sampleService?.stop();
  });

  it("lists every server's tools under its prefix, the server's annotations kept and marked as its claims, while the stalled one holds up none", async () => {
    const { tools } = await client.listTools();
    const names = tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['ev_echo', 'ev_get-tiny-image', 'sdk_echo', 'sdk_add', 'dm_slow', 'gw_echo_text']));
    expect(names.filter((name) => name.startsWith('st_'))).toEqual([]);
    const sdkEcho = tools.find((tool) => tool.name === 'sdk_echo');
    expect(sdkEcho?.annotations).toEqual({ readOnlyHint: true });
    // The server's own _meta kept, the gateway's marker beside it (docs/gateway.md, "MCP servers as a tool source").
    expect(sdkEcho?._meta).toEqual({
      'example.com/owner': 'sdk-peer',
      'io.toolmesh/annotations': { claimedBy: 'mcp-server', bundle: 'sdk' },
      'io.toolmesh/definitionHash': expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
    });
    // Our own gateway as the server: its manifest's tools are, to this gateway, that server's claims.
    expect(tools.find((tool) => tool.name === 'gw_echo_text')?._meta).toEqual({
      'io.toolmesh/annotations': { claimedBy: 'mcp-server', bundle: 'gateway' },
      'io.toolmesh/definitionHash': expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
    });

    const rows = await bundles();
    const stalledRow = rows.find((row) => row.bundle === 'stalled');
    expect(stalledRow).toMatchObject({ toolCount: 0, lastError: { code: 'registry.mcp_server_unreachable' } });
    expect(rows.find((row) => row.bundle === 'everything')).toMatchObject({ source: 'remote', lastError: null });
    // Each server's era found on its own: server-everything speaks 2025, our gateway 2026-07-28.
    await front.logged(/event=mcp_upstream_connected bundle=everything era=legacy/);
    await front.logged(/event=mcp_upstream_connected bundle=gateway era=modern/);
  });

  it('forwards calls and passes their results on whole: text, an image, resource links, structured content', async () => {
    const direct = await connectedClient(everything.url);
    try {
      expect((await call('ev_echo', { message: 'federated' })).content).toEqual([{ type: 'text', text: 'Echo: federated' }]);
      for (const [tool, args] of [
        ['get-tiny-image', {}],
        ['get-resource-links', { count: 2 }],
        ['get-structured-content', { location: 'Chicago' }],
      ] as const) {
        const through = await call(`ev_${tool}`, args);
        const { content, structuredContent } = (await direct.callTool({ name: tool, arguments: args })) as CallToolResult;
        expect({ content: through.content, structuredContent: through.structuredContent }).toEqual({ content, structuredContent });
      }
      expect((await call('ev_get-tiny-image')).content).toContainEqual(expect.objectContaining({ type: 'image', mimeType: 'image/png' }));
      expect((await call('ev_get-resource-links', { count: 2 })).content).toContainEqual(
        expect.objectContaining({ type: 'resource_link' }),
      );
    } finally {
      await direct.close();
    }
    // The 2026-07-28 server: our own gateway in front of the sample tool service.
    expect(textOf(await call('gw_echo_text', { text: 'twice federated' }))).toContain('twice federated');
  });

  it('lists and calls the tools of an SDK v2 server that speaks 2026-07-28, its era found by server/discover', async () => {
    await front.logged(/event=mcp_upstream_connected bundle=sdk2026 era=modern/);
    const { tools } = await client.listTools();
    expect(tools.find((tool) => tool.name === 's26_echo')).toMatchObject({ annotations: { readOnlyHint: true } });
    expect(await call('s26_add', { a: 20, b: 22 })).toMatchObject({ content: [{ type: 'text', text: '42' }] });
    // Every request the server got was a 2026-07-28 one: no initialize, no session.
    const received = await modernSdkPeer.requests();
    expect(received.map((request) => request.rpcMethod)).toEqual(expect.arrayContaining(['server/discover', 'tools/list', 'tools/call']));
    expect(received.filter((request) => request.rpcMethod === 'initialize' || request.sessionId !== null)).toEqual([]);
    expect(received.find((request) => request.rpcMethod === 'tools/call')?.protocolVersion).toBe('2026-07-28');
  });

  it("sends the bundle's own credential and the correlation ids in _meta and as headers, never the caller's token", async () => {
    expect(textOf(await call('sdk_echo', { text: 'hello' }))).toBe('hello');
    const received = await sdkPeer.requests();
    const calls = received.filter((request) => request.rpcMethod === 'tools/call');
    expect(calls.length).toBeGreaterThan(0);
    const last = calls[calls.length - 1];
    expect(last).toMatchObject({
      authorization: PEER_TOKEN,
      meta: expect.objectContaining({ 'io.toolmesh/guid': 'federation-guid-1', 'io.toolmesh/requestId': expect.any(String) }),
      headers: expect.objectContaining({ guid: 'federation-guid-1' }),
    });
    // The same request id in both places, as a REST tool service gets it (x-request-id).
    expect(last.headers['x-request-id']).toBe(last.meta?.['io.toolmesh/requestId']);
    expect(received.filter((request) => request.authorization !== PEER_TOKEN)).toEqual([]);
    // Nothing else of the caller's request comes along: only the transport's own headers and the correlation ids.
    const sent = new Set(received.flatMap((request) => Object.keys(request.headers)));
    expect([...sent].filter((name) => !UPSTREAM_HEADERS.has(name))).toEqual([]);
  });

  it("re-creates a 2025 server's session after it restarted, and the call that found it gone succeeds", async () => {
    expect(textOf(await call('sdk_add', { a: 1, b: 2 }))).toBe('3');
    await sdkPeer.stop();
    sdkPeer = await startHttpPeer([`--port=${sdkPort}`]);
    expect(await call('sdk_add', { a: 2, b: 3 })).toMatchObject({ content: [{ type: 'text', text: '5' }] });
    expect((await call('sdk_add', { a: 2, b: 3 })).isError).toBeFalsy();
    // A new session: opened by the call that found the old one gone, or before it by the replica's
    // listening connection, which noticed the server's GET stream end.
    await front.logged(/event=mcp_upstream_connected bundle=sdk /, 2);
  });

  it("cancels the server's call when the client hangs up", async () => {
    const hangUp = new AbortController();
    const request = fetch(frontUrl(), {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'sdk_slow', arguments: { ms: 60_000 } } }),
      signal: hangUp.signal,
    }).catch(() => undefined);
    let received: PeerRequest[] = [];
    const poll = async (rpcMethod: string) => {
      await until(() => {
        void sdkPeer.requests().then(
          (requests) => (received = requests),
          () => undefined,
        );
        return received.some((peerRequest) => peerRequest.rpcMethod === rpcMethod);
      }, `the server received ${rpcMethod}`);
    };
    await poll('tools/call');
    hangUp.abort();
    await request;
    await poll('notifications/cancelled');
  });

  it('gives an isError result for a call whose server is killed, and the next calls fail fast once its circuit opens', async () => {
    const running = call('dm_slow', { ms: 60_000 });
    let seen = false;
    await until(() => {
      void doomed.requests().then(
        (requests) => (seen = requests.some((request) => request.rpcMethod === 'tools/call')),
        () => undefined,
      );
      return seen;
    }, 'the doomed server received the call');
    process.kill(doomed.pid, 'SIGKILL');
    const result = await running;
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^Tool dm_slow failed: /);
    // No connection: each call fails at once; after three the circuit opens and the server is not even tried.
    const texts: string[] = [];
    for (let i = 0; i < 4; i += 1) {
      const next = await call('dm_echo', { text: 'anyone?' });
      expect(next.isError).toBe(true);
      texts.push(textOf(next));
    }
    expect(texts[texts.length - 1]).toMatch(/is not being called: its last connections failed/);
    // The caller is told the bundle and the cause's code, never where the server is.
    const { host } = new URL(doomed.url);
    for (const text of [textOf(result), ...texts]) {
      expect(text).not.toContain(host);
      expect(text).toMatch(/the MCP server of bundle \S+ /);
    }
  });
});

describe("an MCP server bundle's warm start from Redis (issue 28)", () => {
  let redis: TestRedis;
  let peer: HttpPeer;
  const withUpstream = (config: GatewayConfig) => {
    config.mcp.bundles = [{ name: 'sdk', namePrefix: 'sdk_', mcpServer: { url: peer.url, era: '2025' } }];
    config.mcp.redis = { ...config.mcp.redis, url: redis.url, keyPrefix: 'federation-test' };
  };

  beforeAll(async () => {
    [redis, peer] = await Promise.all([startRedis(), startHttpPeer()]);
  });
  afterAll(async () => {
    await peer?.stop();
    await redis?.kill();
  });

  it("a replica that starts while the server is down serves another replica's listing from Redis, ready, its calls still forwarded", async () => {
    const a = await startTestGateway(peer.url, withUpstream);
    try {
      expect(((await a.rpc('tools/list')).result?.tools as Array<{ name: string }>).map((tool) => tool.name)).toContain('sdk_echo');
      let stored = false;
      await until(() => {
        void redis.keys().then((keys) => (stored = keys.length > 0));
        return stored;
      }, 'the listing written to Redis');
    } finally {
      await a.stop();
    }
    await peer.stop();

    const b = await startTestGateway(peer.url, withUpstream);
    try {
      const listed = (await b.rpc('tools/list')).result?.tools as Array<{ name: string; annotations?: unknown }>;
      expect(listed.find((tool) => tool.name === 'sdk_echo')).toMatchObject({ annotations: { readOnlyHint: true } });
      const status = (await (await fetch(`${b.gateway.managementUrl}/actuator/toolBundles`)).json()) as {
        bundles: Array<{ source: string; lastError: { code: string } | null }>;
      };
      expect(status.bundles[0]).toMatchObject({ source: 'redis', lastError: { code: 'registry.mcp_server_unreachable' } });
      expect((await fetch(`${b.gateway.managementUrl}/actuator/health/readiness`)).status).toBe(200);
      // The tool is still the server's: its call goes there, and fails as the server is down.
      expect((await b.rpc('tools/call', { name: 'sdk_echo', arguments: { text: 'x' } })).result).toMatchObject({
        isError: true,
        content: [{ type: 'text', text: expect.stringMatching(/^Tool sdk_echo failed: /) }],
      });
    } finally {
      await b.stop();
    }
  }, 90_000);
});
