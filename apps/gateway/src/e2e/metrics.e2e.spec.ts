import { startRedis, type TestRedis } from '@toolmesh/test-peers/redis-server';

import { startTestGateway, type TestGateway, useGatewayWithSampleService } from '../test-support/test-gateway';

const MODERN_META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };

/** One scrape of `/metrics`: the value of each series, keyed by its name and labels as written. */
async function scrape(gateway: TestGateway): Promise<{ text: string; value(series: string): number }> {
  const res = await fetch(`${gateway.gateway.managementUrl}/metrics`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  const text = await res.text();
  const values = new Map(
    text
      .split('\n')
      .filter((line) => line !== '' && !line.startsWith('#'))
      .map((line) => [line.slice(0, line.lastIndexOf(' ')), Number(line.slice(line.lastIndexOf(' ') + 1))] as const),
  );
  return { text, value: (series) => values.get(series) ?? 0 };
}

describe('Prometheus metrics on the management port (SPEC G23)', () => {
  const { gateway } = useGatewayWithSampleService();

  const modernCall = (name: string, args: Record<string, unknown>) =>
    gateway().post(
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args, _meta: MODERN_META } },
      { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': name },
    );

  it('count requests by method, era and outcome, time them and the tool calls, and count tool-service errors', async () => {
    const before = await scrape(gateway());
    for (let i = 0; i < 3; i++) await gateway().rpc('tools/call', { name: 'echo_text', arguments: { text: 'hi' } });
    for (let i = 0; i < 2; i++) await (await modernCall('echo_text', { text: 'hi' })).json();
    await gateway().rpc('tools/call', { name: 'always_fails', arguments: {} });
    await gateway().rpc('no/such/method', {});
    await gateway().post({ jsonrpc: '2.0', method: 'notifications/initialized' });
    const after = await scrape(gateway());

    const delta = (series: string) => after.value(series) - before.value(series);
    expect(delta('toolmesh_mcp_requests_total{method="tools/call",era="legacy",outcome="result"}')).toBe(4);
    expect(delta('toolmesh_mcp_requests_total{method="tools/call",era="modern",outcome="result"}')).toBe(2);
    expect(delta('toolmesh_mcp_requests_total{method="(unknown)",era="legacy",outcome="error"}')).toBe(1);
    expect(delta('toolmesh_mcp_requests_total{method="notifications/initialized",era="legacy",outcome="accepted"}')).toBe(1);
    expect(delta('toolmesh_mcp_request_duration_seconds_count{method="tools/call",era="modern"}')).toBe(2);
    expect(delta('toolmesh_tool_call_duration_seconds_count{tool="echo_text"}')).toBe(5);
    expect(delta('toolmesh_tool_service_errors_total{kind="http_5xx"}')).toBe(1);
    // Nothing a caller sent is a label: the unknown method's name appears nowhere.
    expect(after.text).not.toContain('no/such/method');
  });

  it('report the catalogue per bundle, readiness and the open notification streams', async () => {
    const listen = new AbortController();
    const stream = await fetch(gateway().url, {
      method: 'POST',
      signal: listen.signal,
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'subscriptions/listen',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 'L',
        method: 'subscriptions/listen',
        params: { notifications: { toolsListChanged: true }, _meta: MODERN_META },
      }),
    });
    await (stream.body as ReadableStream<Uint8Array>).getReader().read(); // the acknowledgement: the stream is open
    const metrics = await scrape(gateway());
    listen.abort();
    expect(metrics.value('toolmesh_catalogue_tools{bundle="sample"}')).toBeGreaterThan(10);
    expect(metrics.value('toolmesh_catalogue_last_refresh_ok{bundle="sample"}')).toBe(1);
    expect(metrics.value('toolmesh_catalogue_ready')).toBe(1);
    expect(metrics.text).toMatch(/^toolmesh_catalogue_age_seconds\{bundle="sample"\} \d/m);
    expect(metrics.value('toolmesh_notification_streams_open')).toBe(1);
    expect(metrics.text).not.toContain('toolmesh_redis_available '); // no Redis configured
  });
});

describe('metrics switched off', () => {
  let gateway: TestGateway;
  beforeAll(async () => {
    gateway = await startTestGateway('http://127.0.0.1:9', (config) => {
      config.server.metricsEnabled = false;
    });
  });
  afterAll(() => gateway.stop());

  it('serve no /metrics', async () => {
    expect((await fetch(`${gateway.gateway.managementUrl}/metrics`)).status).toBe(404);
  });
});

describe('the Redis gauge', () => {
  let redis: TestRedis;
  let gateway: TestGateway;
  beforeAll(async () => {
    redis = await startRedis();
    gateway = await startTestGateway('http://127.0.0.1:9', (config) => {
      config.mcp.redis = { ...config.mcp.redis, url: redis.url, commandTimeoutMillis: 300 };
      config.mcp.catalogue.forcedRefreshCooldownMillis = 0;
    });
  });
  afterAll(async () => {
    await gateway.stop();
    await redis.kill();
  });

  /** The gauge once a call (which makes the cold catalogue read Redis) has been answered, polled until `expected`. */
  async function gaugeBecomes(expected: number): Promise<number> {
    let value = -1;
    for (let attempt = 0; attempt < 100 && value !== expected; attempt++) {
      await gateway.rpc('tools/call', { name: 'anything', arguments: {} });
      value = (await scrape(gateway)).value('toolmesh_redis_available');
    }
    return value;
  }

  it('reads 1 while Redis answers and 0 once it is gone', async () => {
    expect(await gaugeBecomes(1)).toBe(1);
    await redis.kill();
    expect(await gaugeBecomes(0)).toBe(0);
  });
});
