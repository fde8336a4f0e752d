import { randomUUID } from 'node:crypto';

import { startRedis, type TestRedis } from '@toolmesh/test-peers/redis-server';
import { type SampleToolService, startSampleToolService } from '@toolmesh/test-peers/sample-tool-service';

import type { GatewayConfig } from '../config/gateway-config';
import { startTestGateway, type TestGateway } from '../test-support/test-gateway';
import { authTrusting, startTokenIssuer, type TokenIssuer } from '../test-support/token-issuer';

/**
 * Rate limits on tool calls (SPEC G27): per caller and per tool, refused with 429 before the tool service
 * is called; across replicas with Redis, and still enforced locally, never blocking, when Redis dies.
 */
const AUDIENCE = 'https://gateway.test.invalid/mcp';

let issuer: TokenIssuer;
let tools: SampleToolService;
const started: TestGateway[] = [];

beforeAll(async () => {
  issuer = await startTokenIssuer(AUDIENCE);
  tools = await startSampleToolService();
});
afterAll(async () => {
  await Promise.all(started.map((gateway) => gateway.stop()));
  await tools?.stop();
  await issuer?.close();
});

async function gateway(
  rateLimits: GatewayConfig['rateLimits'],
  options: { auth?: boolean; redisUrl?: string; keyPrefix?: string; toolSearch?: boolean } = {},
) {
  const gw = await startTestGateway(tools.url, (config) => {
    config.server.metricsEnabled = true;
    config.rateLimits = rateLimits;
    config.mcp.toolSearch = options.toolSearch ?? false;
    // What is shown here is the count shared through Redis: a command slowed past the default 100 ms by a
    // loaded test machine would make the limits local for a while (hung-redis.e2e.spec.ts shows that).
    if (options.redisUrl !== undefined)
      config.mcp.redis = {
        ...config.mcp.redis,
        url: options.redisUrl,
        keyPrefix: options.keyPrefix ?? 'rl',
        rateLimitTimeoutMillis: 5_000,
      };
    if (options.auth !== false) {
      config.auth = {
        ...authTrusting(issuer, AUDIENCE),
        algorithms: ['RS256'],
        maxCachedTokens: 100,
      };
    }
  });
  started.push(gw);
  return gw;
}

const callerToken = async (subject: string) => `Bearer ${await issuer.sign({ sub: subject })}`;

async function call(gw: TestGateway, authorization: string | undefined, name = 'echo_text'): Promise<Response> {
  const args = name === 'echo_text' ? { text: 'hi' } : { customerId: 'C1001' };
  return gw.post(
    { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } },
    authorization === undefined ? {} : { authorization },
  );
}

describe('per caller', () => {
  it('refuses a caller over its limit with 429, Retry-After and a JSON-RPC error, while another caller is unaffected', async () => {
    const gw = await gateway({ perCaller: { points: 3, durationSeconds: 60 }, perTool: [] });
    const alice = await callerToken('alice');
    const bob = await callerToken('bob');
    await tools.clearCalls();
    for (let i = 0; i < 3; i += 1) expect((await call(gw, alice)).status).toBe(200);
    const refused = await call(gw, alice);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(await refused.json()).toMatchObject({
      id: 1,
      error: { code: -32004, data: { limit: 'caller', retryAfterSeconds: expect.any(Number) } },
    });
    expect((await call(gw, bob)).status).toBe(200);
    expect(await tools.calls()).toHaveLength(4); // the refused call never reached the tool service
    const metrics = await (await fetch(`${gw.gateway.managementUrl}/metrics`)).text();
    expect(metrics).toContain('toolmesh_rate_limited_calls_total{limit="caller"} 1');
  });

  it('counts by client address when nobody is authenticated', async () => {
    const gw = await gateway({ perCaller: { points: 2, durationSeconds: 60 }, perTool: [] }, { auth: false });
    expect((await call(gw, undefined)).status).toBe(200);
    expect((await call(gw, undefined)).status).toBe(200);
    expect((await call(gw, undefined)).status).toBe(429);
  });
});

describe('tokens without a subject', () => {
  // Each token its own (`jti`): two signed in one second with the same claims would be the same string.
  const token = async (claims: Record<string, unknown>) => `Bearer ${await issuer.sign({ sub: undefined, jti: randomUUID(), ...claims })}`;

  it("count by their client's id (client_id, else azp), and a token naming neither by itself: never one bucket for all", async () => {
    const gw = await gateway({ perCaller: { points: 2, durationSeconds: 60 }, perTool: [] });
    const anonymous = await token({});
    expect((await call(gw, anonymous)).status).toBe(200);
    expect((await call(gw, anonymous)).status).toBe(200);
    expect((await call(gw, anonymous)).status).toBe(429);
    expect((await call(gw, await token({}))).status).toBe(200); // another token naming no one is another caller

    const reporting = await token({ azp: 'reporting' });
    expect((await call(gw, reporting)).status).toBe(200);
    expect((await call(gw, reporting)).status).toBe(200);
    expect((await call(gw, await token({ azp: 'reporting' }))).status).toBe(429); // another token of the same client
    expect((await call(gw, await token({ azp: 'billing' }))).status).toBe(200);
    expect((await call(gw, await token({ client_id: 'exports' }))).status).toBe(200);
  });
});

describe('search_tools', () => {
  const search = (gw: TestGateway, authorization: string) =>
    gw.post(
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'search_tools', arguments: { query: 'customer' } } },
      { authorization },
    );

  it("counts against the caller's limit as any tool call does: a caller past it is refused 429 whichever it calls", async () => {
    const gw = await gateway({ perCaller: { points: 3, durationSeconds: 60 }, perTool: [] }, { toolSearch: true });
    const heidi = await callerToken('heidi');
    for (let i = 0; i < 3; i += 1) expect((await search(gw, heidi)).status).toBe(200);
    const refused = await search(gw, heidi);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(await refused.json()).toMatchObject({ id: 2, error: { code: -32004, data: { limit: 'caller' } } });
    expect((await call(gw, heidi)).status).toBe(429);
    expect((await search(gw, await callerToken('ivan'))).status).toBe(200);
    expect(gw.logs()).toMatch(/tool_call_rate_limited.*search_tools/);
  });

  it('is limited by a perTool rule matching its name, for all callers together', async () => {
    const gw = await gateway({ perTool: [{ tools: 'search_*', points: 2, durationSeconds: 60 }] }, { toolSearch: true });
    expect((await search(gw, await callerToken('judy'))).status).toBe(200);
    expect((await search(gw, await callerToken('ken'))).status).toBe(200);
    const refused = await search(gw, await callerToken('leo'));
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { error: { data: { limit: string } } }).error.data.limit).toBe('tool');
    expect((await call(gw, await callerToken('leo'))).status).toBe(200);
  });
});

describe('per tool', () => {
  it('limits the calls of a matching tool from all callers together, and no other tool', async () => {
    const gw = await gateway({ perTool: [{ tools: 'customer_*', points: 2, durationSeconds: 60 }] });
    expect((await call(gw, await callerToken('carol'), 'customer_lookup')).status).toBe(200);
    expect((await call(gw, await callerToken('dave'), 'customer_lookup')).status).toBe(200);
    const refused = await call(gw, await callerToken('erin'), 'customer_lookup');
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { error: { data: { limit: string } } }).error.data.limit).toBe('tool');
    expect((await call(gw, await callerToken('erin'))).status).toBe(200);
  });
});

describe('with Redis', () => {
  let redis: TestRedis;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(() => redis?.kill());

  it('holds the limit across two replicas, and turns local without blocking when Redis dies', async () => {
    const limits = { perCaller: { points: 3, durationSeconds: 60 }, perTool: [] };
    const options = { redisUrl: redis.url, keyPrefix: `replicas-${Date.now()}` };
    const [first, second] = [await gateway(limits, options), await gateway(limits, options)];
    const frank = await callerToken('frank');
    expect((await call(first, frank)).status).toBe(200);
    expect((await call(second, frank)).status).toBe(200);
    expect((await call(first, frank)).status).toBe(200);
    expect((await call(second, frank)).status).toBe(429);

    await redis.kill();
    const grace = await callerToken('grace');
    // Each replica counts alone now: its own three calls pass, the fourth is refused.
    for (let i = 0; i < 3; i += 1) expect((await call(first, grace)).status).toBe(200);
    expect((await call(first, grace)).status).toBe(429);
    expect((await call(second, grace)).status).toBe(200);
  });

  it('reserves a larger limit a lease at a time: never over it across two replicas, Redis asked once per lease', async () => {
    // 200 points: leases of 10 (a twentieth); its own Redis, as the test above killed the shared one.
    const fresh = await startRedis();
    try {
      const limits = { perCaller: { points: 200, durationSeconds: 60 }, perTool: [] };
      const options = { redisUrl: fresh.url, keyPrefix: `leases-${Date.now()}` };
      const replicas = [await gateway(limits, options), await gateway(limits, options)];
      const heidi = await callerToken('heidi');
      const before = await fresh.evalCalls();
      let admitted = 0;
      for (let i = 0; i < 240; i += 1) if ((await call(replicas[i % 2], heidi)).status === 200) admitted += 1;
      // Never over the limit; under it by at most what the other replica reserved and did not use (lease - 1).
      expect(admitted).toBeLessThanOrEqual(200);
      expect(admitted).toBeGreaterThanOrEqual(200 - 9);
      expect((await fresh.evalCalls()) - before).toBeLessThanOrEqual(24);
    } finally {
      await fresh.kill();
    }
  });
});
