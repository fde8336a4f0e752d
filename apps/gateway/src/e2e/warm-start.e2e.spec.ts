import { gatewayConfigFile, spawnGateway } from '@toolmesh/test-peers/gateway-process';
import { startRedis, type TestRedis } from '@toolmesh/test-peers/redis-server';
import { startSampleToolService } from '@toolmesh/test-peers/sample-tool-service';

import { type JsonRpcReply, startTestGateway, TEST_PROTOCOL_VERSION } from '../test-support/test-gateway';

const KEY_PREFIX = 'warm';
const ROUTE_KEY = `${KEY_PREFIX}:identity:v2:route:sample`;

const rpc = async (url: string, method: string, params: object = {}): Promise<JsonRpcReply> =>
  (await (
    await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'mcp-protocol-version': TEST_PROTOCOL_VERSION },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    })
  ).json()) as JsonRpcReply;

describe('Redis warm start across gateway processes (real redis-server, real tool service)', () => {
  let redis: TestRedis;
  beforeEach(async () => {
    redis = await startRedis();
  });
  afterEach(() => redis.kill());

  it("gateway A fills Redis; the tool service stops; gateway B starts with empty memory and serves A's catalogue from Redis", async () => {
    const tools = await startSampleToolService();
    const a = await startTestGateway(
      tools.url,
      (config) => (config.mcp.redis = { ...config.mcp.redis, url: redis.url, keyPrefix: KEY_PREFIX }),
    );
    const listedByA = (await a.rpc('tools/list')).result;
    while ((await redis.get(ROUTE_KEY)) === undefined) await new Promise((r) => setTimeout(r, 10));
    await a.stop();
    await tools.stop();

    const b = await spawnGateway(gatewayConfigFile(tools.url, `  shutdownDrainMillis: 1000\n  redis: { keyPrefix: ${KEY_PREFIX} }\n`), {
      REDIS_URL: redis.url,
    });
    try {
      const [, mcpUrl, managementUrl] = b.match;
      expect((await rpc(mcpUrl, 'tools/list')).result).toEqual(listedByA);
      const status = (await (await fetch(`${managementUrl}/actuator/toolBundles`)).json()) as {
        ready: boolean;
        bundles: Array<{ source: string; lastError: { code: string } }>;
      };
      expect(status.bundles[0]).toMatchObject({ source: 'redis', lastError: { code: 'registry.manifest_unreachable' } });
      expect((await fetch(`${managementUrl}/actuator/health/readiness`)).status).toBe(200);
    } finally {
      await b.stop();
    }
  });

  it('Redis killed mid-load: no client sees an error, and the outage is logged once, not per command', async () => {
    const tools = await startSampleToolService();
    // A TTL of 0 makes every request start a refresh that writes through to Redis: the most Redis traffic.
    const gw = await startTestGateway(tools.url, (config) => {
      config.mcp.redis = { ...config.mcp.redis, url: redis.url, keyPrefix: KEY_PREFIX, commandTimeoutMillis: 200 };
      config.mcp.catalogue.refreshTtlMillis = 0;
    });
    try {
      const load = (n: number) =>
        Promise.all(
          Array.from({ length: n }, (_, i) =>
            i % 2 === 0 ? gw.rpc('tools/list') : gw.rpc('tools/call', { name: 'echo_text', arguments: { text: `t${i}` } }),
          ),
        );
      const before = await load(40);
      while ((await redis.get(ROUTE_KEY)) === undefined) await new Promise((r) => setTimeout(r, 10));
      const during = load(100);
      await redis.kill();
      const replies = [...before, ...(await during), ...(await load(40))];
      expect(replies.filter((reply) => reply.error !== undefined || reply.result?.isError === true)).toEqual([]);
      while (!gw.logs().includes('event=snapshot_cache_unavailable')) await load(2);
      // Logged when availability changes, never per command. On a loaded machine a command can time out
      // (200 ms) before the kill, which is an outage and a recovery of their own; the kill's outage is then
      // the last change, still logged once however many commands fail after it.
      const changes = gw.logs().match(/event=snapshot_cache_(?:un)?available/g) ?? [];
      expect(changes.at(-1)).toBe('event=snapshot_cache_unavailable');
      expect(changes.filter((change, i) => change === changes[i - 1])).toEqual([]);
    } finally {
      await gw.stop();
      await tools.stop();
    }
  });
});
