import { spawnGateway, writeGatewayConfig } from '@toolmesh/test-peers/gateway-process';
import { HostileToolService } from '@toolmesh/test-peers/hostile-tool-service';
import { rawExchange } from '@toolmesh/test-peers/raw-http';
import type { ServerProcess } from '@toolmesh/test-peers/server-process';

interface CallAnswer {
  status: number;
  body: {
    result?: { isError?: boolean; content: Array<{ text: string }>; tools?: Array<{ name: string }> };
    error?: { code: number; message: string };
  };
}
interface BundleRow {
  bundle: string;
  source: string;
  toolCount: number;
  refusedTools: Array<{ name: string; code: string; message: string }>;
  manifestUrls: string[];
  lastError: { code: string; message: string } | null;
}

/**
 * Issue 32, the gateway's part, against the built gateway as its own process and a tool service written
 * to attack it (tools/test/hostile-tool-service.ts): a deep reply, stuck tools, a tool nested past the
 * parser's limit, manifests that redirect or are far too large, and hostile request details. Each case
 * asserts behaviour (never timings): the figures are in tools/bench/hostile-tool-services.
 */
describe('hostile tool services (built gateway process)', () => {
  let service: HostileToolService;
  let gateway: ServerProcess & { match: RegExpExecArray };
  let mcpUrl: string;
  let managementUrl: string;

  beforeAll(async () => {
    service = await new HostileToolService().start();
    const bundle = (name: string, manifestPath: string) =>
      `    - { name: ${name}, serviceDomain: "${service.url}", manifestPath: ${manifestPath} }`;
    const config = writeGatewayConfig(
      `server: { port: 0, managementPort: 0 }
mcp:
  maxToolTimeoutMillis: 60000
  catalogue: { manifestTimeoutMillis: 30000 }
  bundles:
${[bundle('hostile', '/tool-manifest'), bundle('moved', '/moved-manifest'), bundle('away', '/away-manifest'), bundle('huge', '/huge-manifest')].join('\n')}
`,
    );
    gateway = await spawnGateway(config);
    [, mcpUrl, managementUrl] = gateway.match;
  });
  afterAll(async () => {
    service?.releaseStuck();
    await gateway?.stop();
    await service?.stop();
  });

  let nextId = 1;
  async function post(body: string, headers: Record<string, string> = {}): Promise<CallAnswer> {
    const res = await fetch(mcpUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'mcp-protocol-version': '2025-11-25', ...headers },
      body,
    });
    return { status: res.status, body: (await res.json()) as CallAnswer['body'] };
  }
  const rpc = (method: string, params: unknown) => post(JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params }));
  const call = (name: string, args: unknown = {}) => rpc('tools/call', { name, arguments: args });
  const liveness = async () => (await fetch(`${managementUrl}/actuator/health/liveness`)).status;
  const bundles = async () => ((await (await fetch(`${managementUrl}/actuator/toolBundles`)).json()) as { bundles: BundleRow[] }).bundles;

  it('answers a deep 8 MB reply with an isError result naming the limit, while another tool and liveness answer', async () => {
    const deep = Array.from({ length: 5 }, () => call('deep_reply'));
    const [echo, probe] = await Promise.all([call('echo', { text: 'neighbour' }), liveness()]);
    expect(echo.body.result).toMatchObject({ isError: false, content: [{ text: '{"text":"neighbour"}' }] });
    expect(probe).toBe(200);
    for (const answer of await Promise.all(deep)) {
      expect(answer.status).toBe(200);
      expect(answer.body.result).toMatchObject({
        isError: true,
        content: [{ text: 'Tool deep_reply failed: the reply is nested deeper than 254 levels.' }],
      });
    }
    expect(await liveness()).toBe(200);
  });

  it("keeps a third tool's calls answered while two tools of its service are stuck at their caps", async () => {
    let stuckSettled = 0;
    const stuck = [...Array.from({ length: 64 }, () => call('stuck_a')), ...Array.from({ length: 64 }, () => call('stuck_b'))].map(
      (answer) =>
        answer.then((settled) => {
          stuckSettled += 1;
          return settled;
        }),
    );
    // 64 of stuck_a and 32 of stuck_b take the service's 96 shared connections; the other 32 of stuck_b are refused.
    while (service.stuckCalls() < 96 || stuckSettled < 32) await new Promise((resolve) => setTimeout(resolve, 20));
    const third = await call('echo', { text: 'third' });
    expect(third.body.result).toMatchObject({ isError: false, content: [{ text: '{"text":"third"}' }] });
    expect(stuckSettled).toBe(32); // the stuck calls are still held: the third tool did not wait for them
    expect(service.stuckCalls()).toBe(96);

    service.releaseStuck();
    const answers = await Promise.all(stuck);
    const refused = answers.filter((answer) => answer.body.result?.isError);
    expect(refused).toHaveLength(32);
    expect(refused[0].body.result?.content[0].text).toBe(
      'Tool stuck_b was not called: its tool service already has 96 calls in flight and the rest of its connections are kept for its other tools; retry later.',
    );
  });

  it('refuses the tool nested past the parser limit alone, and serves the rest of its manifest', async () => {
    const row = (await bundles()).find((bundle) => bundle.bundle === 'hostile');
    expect(row).toMatchObject({ source: 'remote', toolCount: 4, lastError: null });
    expect(row?.refusedTools).toEqual([
      { name: 'deep_schema', code: 'registry.tool_too_deep', message: "the tool's definition is nested deeper than 253 levels" },
    ]);
  });

  it('follows a manifest redirect within the origin, shows where it led, and refuses one to another origin', async () => {
    const rows = await bundles();
    expect(rows.find((bundle) => bundle.bundle === 'moved')).toMatchObject({
      source: 'remote',
      toolCount: 1,
      manifestUrls: [`${service.url}/moved-target`],
    });
    const away = rows.find((bundle) => bundle.bundle === 'away');
    expect(away).toMatchObject({ source: 'none', toolCount: 0, lastError: { code: 'registry.manifest_unreachable' } });
    expect(away?.lastError?.message).toMatch(/redirected to another origin \(http:\/\/localhost:\d+\), which is never followed/);
    const names = (await rpc('tools/list', {})).body.result?.tools?.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['echo', 'moved_echo']));
    expect(names).not.toContain('away_echo');
  });

  it('refuses a 50,000-tool manifest on its count, and the other routes keep being served', async () => {
    const huge = (await bundles()).find((bundle) => bundle.bundle === 'huge');
    expect(huge).toMatchObject({
      source: 'none',
      toolCount: 0,
      lastError: { code: 'registry.manifest_too_large', message: "the route's manifests offer 50000 tools, over the limit of 2000" },
    });
    expect((await call('echo', { text: 'still' })).body.result?.isError).toBe(false);
  });

  it('refuses a repeated employee-no rather than forwarding "A, B"', async () => {
    const { host, pathname } = new URL(mcpUrl);
    const body = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{}}}';
    const answer = await rawExchange(
      mcpUrl,
      `POST ${pathname} HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nMCP-Protocol-Version: 2025-11-25\r\nemployee-no: A\r\nemployee-no: B\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
    );
    expect(answer).toMatchObject({ kind: 'response', status: 400 });
    expect(answer.kind === 'response' && answer.body.toString('utf8')).toContain('header employee-no must be sent once');
  });

  it('refuses a number JSON cannot carry exactly with -32602 naming the field, rather than forwarding it changed', async () => {
    const answer = await post(
      '{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"echo","arguments":{"text":"x","amount":1e309}}}',
    );
    expect(answer.body.error).toEqual({
      code: -32602,
      message: expect.stringContaining('params.arguments.amount is a number JSON cannot carry exactly'),
    });
    const big = await post('{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"name":"echo","arguments":{"id":9007199254740993}}}');
    expect(big.body.error?.message).toContain('params.arguments.id is a number JSON cannot carry exactly');
  });
});
