import { once } from 'node:events';

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as StreamableHTTPClientTransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { gatewayConfigFile, spawnGateway } from '@toolmesh/test-peers/gateway-process';
import { startNginx, type TestNginx } from '@toolmesh/test-peers/nginx';
import { until } from '@toolmesh/test-peers/process-table';
import { startRedis, type TestRedis } from '@toolmesh/test-peers/redis-server';
import { type SampleToolService, startSampleToolService } from '@toolmesh/test-peers/sample-tool-service';
import type { ServerProcess } from '@toolmesh/test-peers/server-process';

import { callAddedTool, changeManifest, isListChanged, openListen, type OpenStream } from '../test-support/notification-streams';
import { TEST_PROTOCOL_VERSION } from '../test-support/test-gateway';

type Gateway = ServerProcess & { match: RegExpExecArray };
/** What one client of the load does per call: a description of what went wrong, or nothing. */
type CallOnce = (i: number) => Promise<string | undefined>;

const REPLICAS = ['replica-1', 'replica-2', 'replica-3'];
const CALLS_PER_CLIENT = 300;
const CONCURRENCY = 8;
const V1_GUID = 'multi-replica-sdk-v1';
const V2_GUID = 'multi-replica-sdk-v2';

/**
 * `count` calls at most `CONCURRENCY` at a time, while `more(completed)` holds; resolves with the failures.
 * A thrown error counts as a failure, so nothing the client saw goes unreported.
 */
function startLoad(callOnce: CallOnce, more: (started: number) => boolean) {
  let started = 0;
  let completed = 0;
  const failures: string[] = [];
  const worker = async () => {
    while (more(started)) {
      const failure = await callOnce(started++).catch((error: unknown) => `threw ${String(error)}`);
      completed += 1;
      if (failure !== undefined) failures.push(failure);
    }
  };
  const finished = Promise.all(Array.from({ length: CONCURRENCY }, worker)).then(() => failures);
  return { completed: () => completed, finished };
}

/** echo_text through `client`, checked: the text comes back, as a result that is not an error. */
const echoCall =
  (client: { callTool(request: { name: string; arguments: Record<string, unknown> }): Promise<unknown> }, label: string): CallOnce =>
  async (i) => {
    const text = `${label}-${i}`;
    const result = (await client.callTool({ name: 'echo_text', arguments: { text } })) as {
      isError?: boolean;
      content?: Array<{ text?: string }>;
    };
    return result.isError === false && result.content?.[0]?.text === text ? undefined : `call ${i}: ${JSON.stringify(result)}`;
  };

/** How many tools/call requests from the client sending `guid` a replica received, read from its request log lines. */
const callsReceived = (replica: Gateway, guid: string) =>
  replica
    .output()
    .split('\n')
    .filter(
      (line) => line.includes('event=mcp_http_request_received') && line.includes(`guid=${guid} `) && line.includes('method=tools/call'),
    ).length;

/** The 2025 tools/list of one replica, asked directly. */
async function toolNames(mcpUrl: string): Promise<string[]> {
  const res = await fetch(mcpUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'mcp-protocol-version': TEST_PROTOCOL_VERSION },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
  });
  const reply = (await res.json()) as { result?: { tools: Array<{ name: string }> } };
  return (reply.result?.tools ?? []).map((tool) => tool.name).sort();
}

/** SPEC G20 / G21 and issue 15: built gateway processes behind Debian's nginx, one real Redis, the sample tool service. */
describe('three gateway replicas behind nginx (round robin), one Redis, the sample tool service', () => {
  /** Everything started, stopped in reverse order in afterAll whatever failed. */
  const owned: Array<() => Promise<unknown>> = [];
  let redis: TestRedis;
  let tools: SampleToolService;
  let config: string;
  const replicas: Gateway[] = [];
  let nginx: TestNginx;
  let v1: ClientV1;
  let v2: Client;
  let v1SessionId: string | undefined;

  const spawnReplica = async (name: string) => {
    // POD_NAME is what the gateway sends as X-Caller-Host: each replica's calls can be told apart.
    const replica = await spawnGateway(config, { POD_NAME: name });
    owned.push(() => replica.stop());
    return replica;
  };

  beforeAll(async () => {
    redis = await startRedis();
    owned.push(() => redis.kill());
    tools = await startSampleToolService();
    owned.push(() => tools.stop());
    // A TTL far above the test: a replica sees a change only through its own forced refresh or Redis.
    config = gatewayConfigFile(
      tools.url,
      `  shutdownDrainMillis: 5000\n  catalogue: { refreshTtlMillis: 120000, forcedRefreshCooldownMillis: 0 }\n  redis: { url: "${redis.url}" }`,
    );
    replicas.push(...(await Promise.all(REPLICAS.map(spawnReplica))));
    nginx = await startNginx(replicas.map((replica) => new URL(replica.match[1]).host));
    owned.push(() => nginx.stop());

    v1 = new ClientV1({ name: 'sdk-v1', version: '1.0.0' });
    const v1Transport = new StreamableHTTPClientTransportV1(new URL(nginx.url), { requestInit: { headers: { guid: V1_GUID } } });
    await v1.connect(v1Transport);
    owned.push(() => v1.close());
    v1SessionId = v1Transport.sessionId;
    v2 = new Client({ name: 'sdk-v2', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await v2.connect(new StreamableHTTPClientTransport(new URL(nginx.url), { requestInit: { headers: { guid: V2_GUID } } }));
    owned.push(() => v2.close());
  }, 120_000);

  afterAll(async () => {
    for (const stop of owned.reverse()) await stop().catch(() => undefined);
  }, 120_000);

  it(`clients of both eras make ${CALLS_PER_CLIENT} calls each through nginx with no error, and every replica serves both`, async () => {
    expect(v2.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    expect(v1SessionId).toEqual(expect.any(String)); // the initialize reply's Mcp-Session-Id came back through nginx

    const loads = [
      startLoad(echoCall(v1, 'v1'), (started) => started < CALLS_PER_CLIENT),
      startLoad(echoCall(v2, 'v2'), (started) => started < CALLS_PER_CLIENT),
    ];
    expect(await Promise.all(loads.map((load) => load.finished))).toEqual([[], []]);

    // Each call reached exactly one replica (none lost, none replayed), and each replica took some of each client's.
    for (const guid of [V1_GUID, V2_GUID]) {
      await until(
        () => replicas.reduce((sum, replica) => sum + callsReceived(replica, guid), 0) === CALLS_PER_CLIENT,
        `${guid}: every call logged once`,
      );
      expect(replicas.map((replica) => callsReceived(replica, guid) > 0)).toEqual([true, true, true]);
    }
    // The tool service saw the calls come from every replica, and the v1 client's Mcp-Session-Id on them.
    const recorded = await tools.calls();
    expect(new Set(recorded.map((call) => call.headers['x-caller-host']))).toEqual(new Set(REPLICAS));
    const v1Calls = recorded.filter((call) => call.headers.guid === V1_GUID);
    expect(v1Calls.length).toBeGreaterThan(0);
    expect(new Set(v1Calls.map((call) => call.headers['mcp-session-id']))).toEqual(new Set([v1SessionId]));
    // Clients sent no x-request-id: each call carries nginx's own (32 hex digits, not the gateway's UUID), one per request.
    const requestIds = recorded.map((call) => call.headers['x-request-id']);
    expect(requestIds.every((id) => /^[0-9a-f]{32}$/.test(id ?? ''))).toBe(true);
    expect(new Set(requestIds).size).toBe(recorded.length);
  }, 120_000);

  it('a manifest change one replica sees reaches the listen streams held on every replica, and one held through nginx', async () => {
    const streams: OpenStream[] = [];
    try {
      for (const [i, replica] of replicas.entries()) streams.push(await openListen(replica.match[1], `direct-${i}`));
      // Through nginx too: the acknowledgement arriving while the stream stays open shows nginx does not buffer it.
      streams.push(await openListen(nginx.url, 'through-nginx'));
      for (const stream of streams) await stream.next((message) => message.method === 'notifications/subscriptions/acknowledged');

      await changeManifest(tools.url);
      // Only replica-1 is told, by a call of the tool that just appeared: unknown there, it forces a refresh.
      expect(await callAddedTool(replicas[0].match[1])).toMatchObject({ result: { content: [{ text: 'added' }], isError: false } });
      for (const stream of streams) expect(await stream.next(isListChanged)).toMatchObject({ method: 'notifications/tools/list_changed' });
    } finally {
      for (const stream of streams) stream.close();
      // Back to the sample tools: the call of the tool now gone answers 404, which starts a background
      // refresh on replica-1 (and so of Redis, which the warm start below reads).
      await changeManifest(tools.url);
      await callAddedTool(replicas[0].match[1]);
    }
    while ((await toolNames(replicas[0].match[1])).includes('test_added_tool')) await new Promise((resolve) => setTimeout(resolve, 20));
  }, 120_000);

  it('one replica gets SIGTERM mid-load: no client call fails, and the calls after its exit go to the others', async () => {
    const leaving = replicas[2];
    const servedBefore = [V1_GUID, V2_GUID].map((guid) => callsReceived(leaving, guid));
    const loads: Array<ReturnType<typeof startLoad>> = [];
    const exited = once(leaving.child, 'exit');
    let completedAtExit: number | undefined;
    void exited.then(() => (completedAtExit = Math.max(...loads.map((load) => load.completed()))));
    // Each client keeps calling until a further CALLS_PER_CLIENT calls have completed after the replica is gone.
    const more = () =>
      completedAtExit === undefined || Math.min(...loads.map((load) => load.completed())) < completedAtExit + CALLS_PER_CLIENT;
    loads.push(startLoad(echoCall(v1, 'v1-sigterm'), more), startLoad(echoCall(v2, 'v2-sigterm'), more));
    await until(() => loads.every((load) => load.completed() >= 50), 'the load under way');
    leaving.child.kill('SIGTERM');

    const failures = await Promise.all(loads.map((load) => load.finished));
    // On failure, what nginx said about it comes with the failed calls.
    expect({ failures, nginxErrors: failures.flat().length > 0 ? nginx.errorLog() : '' }).toEqual({ failures: [[], []], nginxErrors: '' });
    expect(await exited).toEqual([0, null]);
    expect(leaving.output()).toMatch(/event=gateway_stopped/);
    // The replica took part in this load before it left (its last log lines are written on the way out).
    const servedInLoad = [V1_GUID, V2_GUID].map((guid, i) => callsReceived(leaving, guid) - servedBefore[i]);
    expect(servedInLoad.every((count) => count > 0)).toBe(true);
    const retried = nginx
      .accessLog()
      .split('\n')
      .filter((line) => /upstreams=\S+, /.test(line)).length;
    process.stdout.write(
      `SIGTERM mid-load: ${loads.map((load) => load.completed()).join(' + ')} calls, none failed; nginx tried another replica for ${retried} requests\n`,
    );
  }, 120_000);

  it('with the tool service stopped, a fourth replica started with empty memory serves the catalogue from Redis', async () => {
    const listed = await toolNames(replicas[0].match[1]);
    expect(listed).toContain('echo_text');
    await tools.stop();

    const fourth = await spawnReplica('replica-4');
    const [, mcpUrl, managementUrl] = fourth.match;
    expect(await toolNames(mcpUrl)).toEqual(listed);
    const status = (await (await fetch(`${managementUrl}/actuator/toolBundles`)).json()) as { bundles: Array<{ source: string }> };
    expect(status.bundles[0]).toMatchObject({ source: 'redis' });
  }, 120_000);
});
