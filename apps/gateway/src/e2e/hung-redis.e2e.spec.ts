import { createServer, type Server, type Socket } from 'node:net';

import { startRedis, type TestRedis } from '@toolmesh/test-peers/redis-server';
import { type SampleToolService, startSampleToolService } from '@toolmesh/test-peers/sample-tool-service';

import { startTestGateway, type TestGateway } from '../test-support/test-gateway';

/**
 * A Redis that hangs (its connections open, its commands unanswered) must not cost every rate-limited call
 * the command timeout (issue 43: a second each): after one timeout the limits count in memory, logged
 * once, and Redis is asked again only after `mcp.redis.rateLimitRetryMillis`. Against a real Redis
 * process stopped with SIGSTOP, and a real listener that answers the connection's handshake and then
 * nothing, on loopback.
 */
const TIMEOUT_MILLIS = 500;
const RETRY_MILLIS = 1_500;
/** Ten calls with one timeout, on a loaded machine; ten timeouts would be 5,000 ms. */
const BUDGET_MILLIS = TIMEOUT_MILLIS * 4;

let tools: SampleToolService;
const started: TestGateway[] = [];
beforeAll(async () => {
  tools = await startSampleToolService();
});
afterAll(async () => {
  await Promise.all(started.map((gateway) => gateway.stop()));
  await tools?.stop();
});

async function gateway(redisUrl: string): Promise<TestGateway> {
  const gw = await startTestGateway(tools.url, (config) => {
    config.rateLimits = { perCaller: { points: 1_000, durationSeconds: 60 }, perTool: [] };
    config.mcp.redis = {
      ...config.mcp.redis,
      url: redisUrl,
      keyPrefix: `hung-${Date.now()}`,
      rateLimitTimeoutMillis: TIMEOUT_MILLIS,
      rateLimitRetryMillis: RETRY_MILLIS,
      // A command per call, as a limit of 20 points or fewer has: with larger leases most calls ask Redis nothing.
      rateLimitLeaseMax: 1,
    };
  });
  started.push(gw);
  return gw;
}

/** Milliseconds each of `count` calls took, one after another. */
async function callTimes(gw: TestGateway, count: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < count; i += 1) {
    const before = performance.now();
    const res = await gw.post({ jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: 'echo_text', arguments: { text: 'hi' } } });
    expect(res.status).toBe(200);
    times.push(performance.now() - before);
  }
  return times;
}

const total = (times: number[]) => times.reduce((sum, millis) => sum + millis, 0);
const occurrences = (text: string, word: string) => text.split(word).length - 1;

describe('a Redis that hangs', () => {
  let redis: TestRedis;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(() => redis?.kill());

  it('costs one call the command timeout, not every call; logged once; counted in Redis again after the back-off', async () => {
    const gw = await gateway(redis.url);
    await callTimes(gw, 3); // connected, counting in Redis
    const keysBefore = (await redis.keys()).length;
    expect(keysBefore).toBeGreaterThan(0);
    redis.freeze();
    try {
      // Ten calls: the first waits out the 500 ms timeout, the others ask Redis nothing (each would wait 500 ms).
      expect(total(await callTimes(gw, 10))).toBeLessThan(BUDGET_MILLIS);
      expect(occurrences(gw.logs(), 'rate_limits_redis_unavailable')).toBe(1);
    } finally {
      redis.thaw();
    }
    await new Promise((resolve) => setTimeout(resolve, RETRY_MILLIS + 100));
    await callTimes(gw, 2);
    expect(occurrences(gw.logs(), 'rate_limits_redis_available')).toBe(1);
  });
});

describe('a listener in place of Redis that answers the handshake, then nothing', () => {
  let listener: Server;
  const sockets: Socket[] = [];
  beforeAll(async () => {
    listener = createServer((socket) => {
      sockets.push(socket);
      // ioredis says who it is (CLIENT SETINFO) and checks readiness (INFO): answered, so the client is
      // ready; every command after them is read and never answered.
      socket.setEncoding('utf8').on('data', (chunk: string) => {
        for (const command of chunk.match(/\r\n(client|info)\r\n/gi) ?? [])
          socket.write(/info/i.test(command) ? '$11\r\nloading:0\r\n\r\n' : '+OK\r\n');
      });
    });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => listener.close(resolve));
  });

  it('costs one call the command timeout, not every call', async () => {
    const { port } = listener.address() as { port: number };
    const gw = await gateway(`redis://127.0.0.1:${port}`);
    expect(total(await callTimes(gw, 10))).toBeLessThan(BUDGET_MILLIS);
    expect(occurrences(gw.logs(), 'rate_limits_redis_unavailable')).toBe(1);
  });
});
