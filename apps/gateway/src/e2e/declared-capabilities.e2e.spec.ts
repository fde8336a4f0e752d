import { type TestGateway, useGatewayWithSampleService } from '../test-support/test-gateway';

const MODERN = '2026-07-28';
const META = { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientCapabilities': {} };

/**
 * The methods each capability promises a client (MCP 2025-11-25 and 2026-07-28, server features), with
 * params a client could send: written out here, independently of the gateway's own table, so the test
 * fails when the gateway declares what it does not serve.
 */
const METHODS_OF: Record<string, Array<[string, Record<string, unknown>]>> = {
  tools: [
    ['tools/list', {}],
    ['tools/call', { name: 'echo_text', arguments: { text: 'x' } }],
  ],
  prompts: [
    ['prompts/list', {}],
    ['prompts/get', { name: 'any' }],
  ],
  resources: [
    ['resources/list', {}],
    ['resources/templates/list', {}],
    ['resources/read', { uri: 'file:///any' }],
  ],
  logging: [['logging/setLevel', { level: 'info' }]],
  completions: [['completion/complete', { ref: { type: 'ref/prompt', name: 'any' }, argument: { name: 'a', value: '' } }]],
};

interface Answer {
  status: number;
  body: { result?: Record<string, unknown>; error?: { code: number; message: string } };
}

async function modern(gateway: TestGateway, method: string, params: Record<string, unknown>): Promise<Answer> {
  const named = params.name ?? params.uri;
  const name: Record<string, string> = typeof named === 'string' ? { 'mcp-name': named } : {};
  const res = await gateway.post(
    { jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: META } },
    { 'mcp-protocol-version': MODERN, 'mcp-method': method, ...name },
  );
  return { status: res.status, body: (await res.json()) as Answer['body'] };
}

async function legacy(gateway: TestGateway, method: string, params: Record<string, unknown>): Promise<Answer> {
  const res = await gateway.post({ jsonrpc: '2.0', id: 1, method, params });
  return { status: res.status, body: (await res.json()) as Answer['body'] };
}

/** Every method of every declared capability answers: no -32601, no 404 (SPEC N7). */
async function expectEveryDeclaredMethodServed(
  capabilities: Record<string, unknown>,
  send: (method: string, params: Record<string, unknown>) => Promise<Answer>,
): Promise<void> {
  for (const capability of Object.keys(capabilities)) {
    const methods = METHODS_OF[capability];
    expect({ capability, known: methods !== undefined }).toEqual({ capability, known: true });
    for (const [method, params] of methods) {
      const { status, body } = await send(method, params);
      expect({ method, status, code: body.error?.code }).not.toMatchObject({ code: -32601 });
      expect({ method, status }).toEqual({ method, status: 200 });
    }
  }
}

describe('capabilities declared only for what is served (SPEC N7)', () => {
  const { gateway } = useGatewayWithSampleService();

  it('2026-07-28: every method of every capability server/discover declares answers', async () => {
    const discover = await modern(gateway(), 'server/discover', {});
    const capabilities = discover.body.result?.capabilities as Record<string, unknown>;
    expect(capabilities).toHaveProperty('tools');
    await expectEveryDeclaredMethodServed(capabilities, (method, params) => modern(gateway(), method, params));
  });

  it('2026-07-28: prompts and resources are served as a server with none must: empty lists, -32602 for one asked for by name', async () => {
    expect(await modern(gateway(), 'prompts/get', { name: 'any' })).toMatchObject({ status: 200, body: { error: { code: -32602 } } });
    expect(await modern(gateway(), 'resources/read', { uri: 'file:///any' })).toMatchObject({
      status: 200,
      body: { error: { code: -32602, data: { uri: 'file:///any' } } },
    });
  });

  for (const version of ['2025-03-26', '2025-06-18', '2025-11-25']) {
    it(`${version}: every method of every capability initialize declares answers`, async () => {
      const init = await legacy(gateway(), 'initialize', {
        protocolVersion: version,
        capabilities: {},
        clientInfo: { name: 't', version: '1' },
      });
      const capabilities = init.body.result?.capabilities as Record<string, unknown>;
      expect(capabilities).toHaveProperty('tools');
      await expectEveryDeclaredMethodServed(capabilities, (method, params) => legacy(gateway(), method, params));
    });
  }
});

describe('log levels (SPEC N7)', () => {
  const { gateway } = useGatewayWithSampleService();

  it('2025: a gateway of tool services alone, which has no log messages to bring, declares no logging and serves no logging/setLevel', async () => {
    // With an MCP server bundle both eras declare it and relay its servers' messages: mcp-upstream-logging.e2e.spec.ts.
    const init = await legacy(gateway(), 'initialize', {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 't', version: '1' },
    });
    expect(init.body.result?.capabilities).not.toHaveProperty('logging');
    expect(await legacy(gateway(), 'logging/setLevel', { level: 'warning' })).toMatchObject({
      status: 200,
      body: { error: { code: -32601 } },
    });
  });

  it('2026-07-28: an unknown _meta logLevel is -32602 (HTTP 400); a known one is accepted', async () => {
    const send = (logLevel: unknown) =>
      gateway().post(
        { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: { ...META, 'io.modelcontextprotocol/logLevel': logLevel } } },
        { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/list' },
      );
    const unknown = await send('loud');
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toMatchObject({ error: { code: -32602 } });
    expect((await send('debug')).status).toBe(200);
  });
});
