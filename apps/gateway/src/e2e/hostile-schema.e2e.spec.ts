import { DocumentServer } from '@toolmesh/test-peers/document-server';
import { gatewayConfigFile, spawnGateway } from '@toolmesh/test-peers/gateway-process';
import type { ServerProcess } from '@toolmesh/test-peers/server-process';

/**
 * SPEC N5 against the built gateway, as its own process: a manifest's `pattern` can neither freeze the
 * gateway (V8's backtracking engine took 55-95 s on this input, liveness included) nor, when the
 * linear-time engine cannot run it, take the rest of the manifest down with it.
 */
const HOSTILE_INPUT = `${'a'.repeat(30)}!`;
const manifest = {
  revision: 'hostile-1',
  tools: [
    {
      name: 'redos_echo',
      inputSchema: { type: 'object', properties: { text: { type: 'string', pattern: '^(a+)+$' } }, required: ['text'] },
      endpoint: '/tools/echo',
    },
    {
      name: 'backref_tool',
      inputSchema: { type: 'object', properties: { text: { type: 'string', pattern: '^(a)\\1$' } } },
      endpoint: '/tools/echo',
    },
    { name: 'plain_echo', inputSchema: { type: 'object' }, endpoint: '/tools/echo' },
  ],
};

describe('hostile schemas (built gateway process, real tool service)', () => {
  let service: DocumentServer;
  let gateway: ServerProcess & { match: RegExpExecArray };
  let mcpUrl: string;
  let managementUrl: string;

  beforeAll(async () => {
    service = await new DocumentServer().start();
    service.serve('/tool-manifest', { json: manifest }).serve('/tools/echo', { json: { data: { echoed: true } } });
    gateway = await spawnGateway(gatewayConfigFile(service.url));
    [, mcpUrl, managementUrl] = gateway.match;
  });
  afterAll(async () => {
    await gateway?.stop();
    await service?.stop();
  });

  async function rpc(method: string, params: unknown) {
    const res = await fetch(mcpUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'mcp-protocol-version': '2025-11-25' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    });
    return (await res.json()) as {
      result?: { isError?: boolean; content: Array<{ text: string }>; tools?: Array<{ name: string }> };
      error?: unknown;
    };
  }
  const liveness = async () => (await fetch(`${managementUrl}/actuator/health/liveness`)).status;

  it('answers a catastrophic-backtracking input at once, and liveness answers while such calls run', async () => {
    // Twenty hostile calls in flight, liveness probed alongside: with a backtracking engine the first call
    // alone holds the event loop for about a minute and this test times out.
    const calls = Array.from({ length: 20 }, () => rpc('tools/call', { name: 'redos_echo', arguments: { text: HOSTILE_INPUT } }));
    const probes = Array.from({ length: 5 }, () => liveness());
    const [replies, statuses] = await Promise.all([Promise.all(calls), Promise.all(probes)]);
    for (const reply of replies) {
      expect(reply.result?.isError).toBe(true);
      expect(reply.result?.content[0].text).toBe('Invalid arguments for tool redos_echo: arguments.text must match pattern "^(a+)+$"');
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200]);
    expect(service.fetches('/tools/echo')).toBe(0);

    const valid = await rpc('tools/call', { name: 'redos_echo', arguments: { text: 'a'.repeat(5_000) } });
    expect(valid.result).toMatchObject({ content: [{ text: expect.any(String) }] });
    expect([valid.result?.isError, valid.result?.content[0].text]).toEqual([false, expect.stringContaining('echoed')]);
    expect(service.fetches('/tools/echo')).toBe(1);
  }, 30_000); // the bound that fails a backtracking engine: twenty hostile calls would take 20 minutes

  it('refuses the tool whose pattern the engine cannot run, serves the rest, and says why in toolBundles', async () => {
    const list = await rpc('tools/list', {});
    expect(list.result?.tools?.map((tool) => tool.name)).toEqual(['redos_echo', 'plain_echo']);
    const status = (await (await fetch(`${managementUrl}/actuator/toolBundles`)).json()) as { bundles: Array<Record<string, unknown>> };
    expect(status.bundles[0]).toMatchObject({
      bundle: 'sample',
      source: 'remote',
      toolCount: 2,
      refusedTools: [
        {
          name: 'backref_tool',
          code: 'schema.unsupported_pattern',
          message: expect.stringContaining('pattern "^(a)\\1$" cannot run in linear time'),
        },
      ],
    });
    await gateway.logged(/event=manifest_tools_refused .*tools=backref_tool/);
  });
});
