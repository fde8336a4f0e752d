import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as StreamableHTTPClientTransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { freePort } from '@toolmesh/test-peers/free-port';
import { federatingGatewayConfig, spawnGateway } from '@toolmesh/test-peers/gateway-process';
import { type HttpPeer, startHttpPeer } from '@toolmesh/test-peers/peers/http-peer';
import { startRedis, type TestRedis } from '@toolmesh/test-peers/redis-server';
import { type SampleToolService, startSampleToolService } from '@toolmesh/test-peers/sample-tool-service';
import type { ServerProcess } from '@toolmesh/test-peers/server-process';

import { changeManifest, isListChanged, openListen, type OpenStream } from '../test-support/notification-streams';
import { startTestGateway, type TestGateway } from '../test-support/test-gateway';

/**
 * An MCP server's tool changes flow through the front gateway (issue 28): two replicas of the built gateway,
 * sharing Redis, listen to a 2025 server (the SDK peer, its GET stream) and a 2026-07-28 one (our own
 * gateway, its `subscriptions/listen`), and a tool added on either is in the front's `tools/list` and
 * reaches the front's clients as `notifications/tools/list_changed`: an SDK v2 client (2025) of one replica,
 * an SDK v1 client and a 2026-07-28 listen on the other. The front's catalogue TTL is an hour and no
 * call is made: only the upstream's notification can explain the change in time. The time from the change
 * to the client's notification is written to the test's output (the goal is 1 s); it is never asserted.
 */
const HOUR = 3_600_000;

describe("an MCP server's tools/list_changed reaches the front gateway's clients (issue 28)", () => {
  let tools: SampleToolService;
  let upstreamGateway: TestGateway;
  let peer: HttpPeer;
  let peerPort: number;
  let redis: TestRedis;
  let front: ServerProcess & { match: RegExpExecArray };
  let replica: ServerProcess & { match: RegExpExecArray };
  let client: Client;
  let replicaClient: Client;
  let v1: ClientV1;
  let modern: OpenStream;
  /** Resolved by the 2025 SDK v2 client's next list_changed, and the v1 client's. */
  let legacyChanged: Promise<void>;
  let heardLegacy: () => void = () => undefined;
  let v1Changed: Promise<void>;
  let heardV1: () => void = () => undefined;

  const frontUrl = () => front.match[1];
  const nextLegacyChange = () => {
    legacyChanged = new Promise<void>((resolve) => (heardLegacy = resolve));
    v1Changed = new Promise<void>((resolve) => (heardV1 = resolve));
  };
  const frontTools = async (of = client) => (await of.listTools()).tools.map((tool) => tool.name);
  /** The front's tool names once they include all of `wanted` (polled; the test's timeout bounds it). */
  const frontToolsWith = async (wanted: string[], of = client) => {
    for (;;) {
      const names = await frontTools(of);
      if (wanted.every((name) => names.includes(name))) return names;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  };
  /** Waits for the next list_changed on both of the front's streams and reports how long it took. */
  const bothEras = async (what: string, startedAt: number, modernSeen: number) => {
    await legacyChanged;
    const legacyMillis = Date.now() - startedAt;
    await modern.next((message) => isListChanged(message) && modern.messages.filter(isListChanged).length > modernSeen);
    await v1Changed;
    process.stdout.write(
      `${what}: list_changed at one replica's 2025 client ${legacyMillis} ms, at the other's 2026 listen ${Date.now() - startedAt} ms after the change\n`,
    );
  };

  beforeAll(async () => {
    peerPort = await freePort();
    peer = await startHttpPeer([`--port=${peerPort}`]);
    tools = await startSampleToolService();
    redis = await startRedis();
    upstreamGateway = await startTestGateway(tools.url, (config) => {
      config.mcp.catalogue = { ...config.mcp.catalogue, refreshTtlMillis: HOUR, requestedRefreshIntervalMillis: 0 };
    });
    const file = federatingGatewayConfig(
      [
        '{ name: sdk, namePrefix: sdk_, mcpServer: { url: "${SDK_URL}", era: "2025" } }',
        '{ name: gateway, namePrefix: gw_, mcpServer: { url: "${GATEWAY_URL}" } }',
      ],
      { mcp: ['redis: { url: "${REDIS_URL}" }'] },
    );
    const env = { SDK_URL: peer.url, GATEWAY_URL: upstreamGateway.url, REDIS_URL: redis.url };
    [front, replica] = await Promise.all([spawnGateway(file, env), spawnGateway(file, env)]);
    client = new Client({ name: 'changes-test', version: '1.0.0' });
    client.setNotificationHandler('notifications/tools/list_changed', () => heardLegacy());
    await client.connect(new StreamableHTTPClientTransport(new URL(frontUrl())));
    replicaClient = new Client({ name: 'changes-test', version: '1.0.0' });
    await replicaClient.connect(new StreamableHTTPClientTransport(new URL(replica.match[1])));
    v1 = new ClientV1({ name: 'changes-test-v1', version: '1.0.0' });
    v1.setNotificationHandler(ToolListChangedNotificationSchema, () => heardV1());
    await v1.connect(new StreamableHTTPClientTransportV1(new URL(replica.match[1])));
    // Both servers listed on both replicas before any change is made.
    await Promise.all([frontToolsWith(['sdk_echo', 'gw_echo_text']), frontToolsWith(['sdk_echo', 'gw_echo_text'], replicaClient)]);
    modern = await openListen(replica.match[1], 'changes');
    await modern.next((message) => message.method === 'notifications/subscriptions/acknowledged');
  }, 120_000);

  afterAll(async () => {
    modern?.close();
    await Promise.all([client?.close(), replicaClient?.close(), v1?.close()]);
    await Promise.all([front?.stop(), replica?.stop()]);
    await redis?.kill();
    await Promise.all([peer?.stop(), upstreamGateway?.stop()]);
    await tools?.stop();
  });

  it('a tool added on a 2025 server (its GET stream)', async () => {
    nextLegacyChange();
    const modernSeen = modern.messages.filter(isListChanged).length;
    const startedAt = Date.now();
    expect((await fetch(new URL('/__tools?name=added_later', peer.url), { method: 'POST' })).status).toBe(204);
    await bothEras('2025 server', startedAt, modernSeen);
    expect(await frontTools()).toContain('sdk_added_later');
    expect(await frontTools(replicaClient)).toContain('sdk_added_later');
    expect(await client.callTool({ name: 'sdk_added_later', arguments: {} })).toMatchObject({
      content: [{ type: 'text', text: 'added_later called' }],
    });
  });

  it('a tool added on a 2025 server after it restarted: the lost connection is opened again on its own', async () => {
    await peer.stop();
    peer = await startHttpPeer([`--port=${peerPort}`]);
    nextLegacyChange();
    expect((await fetch(new URL('/__tools?name=after_restart', peer.url), { method: 'POST' })).status).toBe(204);
    // With the front's TTL at an hour, only its listening connection, opened again, can bring the new tool.
    await legacyChanged;
    const names = await frontToolsWith(['sdk_after_restart']);
    expect(names).not.toContain('sdk_added_later');
    await front.logged(/event=catalogue_refresh_requested route=sdk/);
    // The other replica too, before the next test counts its notifications: its connection, opened again
    // after a backoff of its own, tells the reopening as a change, which would otherwise land in that test.
    await frontToolsWith(['sdk_after_restart'], replicaClient);
  });

  it('a tool added on a 2026-07-28 server (its subscriptions/listen stream)', async () => {
    nextLegacyChange();
    const modernSeen = modern.messages.filter(isListChanged).length;
    const startedAt = Date.now();
    // The sample service's manifest gains test_added_tool, and the upstream gateway is asked to refresh it.
    await changeManifest(tools.url);
    const refreshed = await fetch(`${upstreamGateway.gateway.managementUrl}/actuator/toolBundles/sample/refresh`, { method: 'POST' });
    expect(refreshed.status).toBe(200);
    await bothEras('2026-07-28 server', startedAt, modernSeen);
    expect(await frontTools()).toContain('gw_test_added_tool');
    // Polled: with the TTL at an hour only the change reaching this replica (its own listen, or Redis) can bring it.
    await frontToolsWith(['gw_test_added_tool'], replicaClient);
  });
});
