import { useDocumentGateway } from '../test-support/document-gateway';

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

type Reply = { result?: { isError?: boolean; content: Array<{ text: string }>; tools?: Array<{ name: string }> }; error?: unknown };

describe('hostile schemas (built gateway process, real tool service)', () => {
  const running = useDocumentGateway((service) =>
    service.serve('/tool-manifest', { json: manifest }).serve('/tools/echo', { json: { data: { echoed: true } } }),
  );
  const rpc = (method: string, params: unknown) => running().rpc<Reply>(method, params);
  const liveness = async () => (await fetch(`${running().managementUrl}/actuator/health/liveness`)).status;

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
    expect(running().service.fetches('/tools/echo')).toBe(0);

    const valid = await rpc('tools/call', { name: 'redos_echo', arguments: { text: 'a'.repeat(5_000) } });
    expect(valid.result).toMatchObject({ content: [{ text: expect.any(String) }] });
    expect([valid.result?.isError, valid.result?.content[0].text]).toEqual([false, expect.stringContaining('echoed')]);
    expect(running().service.fetches('/tools/echo')).toBe(1);
  }, 30_000); // the bound that fails a backtracking engine: twenty hostile calls would take 20 minutes

  it('refuses the tool whose pattern the engine cannot run, serves the rest, and says why in toolBundles', async () => {
    const list = await rpc('tools/list', {});
    expect(list.result?.tools?.map((tool) => tool.name)).toEqual(['redos_echo', 'plain_echo']);
    const status = (await (await fetch(`${running().managementUrl}/actuator/toolBundles`)).json()) as {
      bundles: Array<Record<string, unknown>>;
    };
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
    await running().gateway.logged(/event=manifest_tools_refused .*tools=backref_tool/);
  });
});
