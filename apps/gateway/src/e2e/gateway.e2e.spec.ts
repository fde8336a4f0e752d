import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { type SampleToolService, startSampleToolService } from '@toolmesh/test-peers/sample-tool-service';

import { type JsonRpcReply, startTestGateway, type TestGateway, useGatewayWithSampleService } from '../test-support/test-gateway';

/** A port nobody listens on: bound once, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const textOf = (reply: JsonRpcReply) => reply.result?.content?.[0]?.text ?? '';

describe('gateway against the sample tool service', () => {
  let tools: SampleToolService;
  let gw: TestGateway;

  beforeAll(async () => {
    tools = await startSampleToolService();
    const offlineManifest = path.join(mkdtempSync(path.join(tmpdir(), 'gw-e2e-')), 'offline.json');
    writeFileSync(
      offlineManifest,
      JSON.stringify({
        tools: [
          {
            name: 'offline_tool',
            description: 'Its service is down',
            inputSchema: { type: 'object' },
            endpoint: `http://127.0.0.1:${await closedPort()}/x`,
          },
        ],
      }),
    );
    gw = await startTestGateway(tools.url, (config) => {
      config.mcp.bundles.push({ name: 'offline', serviceDomain: 'http://127.0.0.1:1', manifestFile: offlineManifest });
    });
  });
  afterAll(async () => {
    await gw?.stop();
    await tools?.stop();
  });

  describe('initialize', () => {
    it.each(['2025-03-26', '2025-06-18', '2025-11-25'])('echoes the supported requested version %s', async (version) => {
      const reply = await gw.rpc('initialize', { protocolVersion: version, capabilities: {}, clientInfo: { name: 'c', version: '1' } });
      expect(reply.result).toMatchObject({
        protocolVersion: version,
        capabilities: { tools: { listChanged: true } },
        serverInfo: { name: 'toolmesh-gateway' },
      });
    });

    it('offers the preferred version when the requested one is not served', async () => {
      const reply = await gw.rpc('initialize', { protocolVersion: '2099-01-01', capabilities: {} });
      expect(reply.result?.protocolVersion).toBe('2025-11-25');
    });
  });

  describe('the JSON-RPC error matrix', () => {
    it('answers an unknown method with -32601', async () => {
      expect((await gw.rpc('resources/list')).error).toMatchObject({ code: -32601, message: 'Method not found: resources/list' });
    });

    it.each([
      ['no name', {}],
      ['a numeric name', { name: 5 }],
      ['array arguments', { name: 'echo_text', arguments: ['x'] }],
    ])('answers tools/call with %s with -32602', async (_, params) => {
      expect((await gw.rpc('tools/call', params)).error?.code).toBe(-32602);
    });

    it('answers an unknown tool with -32001 after exactly one forced catalogue refresh', async () => {
      await gw.rpc('tools/list');
      const before = (await tools.stats()).manifestFetches;
      const reply = await gw.rpc('tools/call', { name: 'no_such_tool', arguments: {} });
      expect(reply.error).toEqual({ code: -32001, message: 'Unknown tool: no_such_tool' });
      expect((await tools.stats()).manifestFetches).toBe(before + 1);
      await gw.rpc('tools/call', { name: 'no_such_tool', arguments: {} }); // within the 5 s cooldown
      expect((await tools.stats()).manifestFetches).toBe(before + 1);
    });
  });

  describe('tools', () => {
    it('lists every tool with its public fields only', async () => {
      const { result } = await gw.rpc('tools/list');
      const listed = result?.tools as Array<Record<string, unknown>>;
      expect(listed.map((t) => t.name)).toEqual(
        expect.arrayContaining(['echo_text', 'customer_lookup', 'offline_tool', 'test_simple_text']),
      );
      for (const tool of listed) {
        expect(
          Object.keys(tool).every((key) =>
            ['name', 'title', 'description', 'inputSchema', 'outputSchema', 'annotations', 'icons', 'execution', '_meta'].includes(key),
          ),
        ).toBe(true);
      }
    });

    it('calls a tool and maps text and JSON data (SPEC G13)', async () => {
      const echo = await gw.rpc('tools/call', { name: 'echo_text', arguments: { text: 'héllo "there"' } });
      expect(echo.result).toEqual({
        content: [{ type: 'text', text: 'héllo "there"', _meta: { searchTime: expect.any(Number) } }],
        isError: false,
      });
      const customer = await gw.rpc('tools/call', { name: 'customer_lookup', arguments: { customerId: 'C1001' } });
      expect(customer.result?.isError).toBe(false);
      expect(JSON.parse(textOf(customer))).toMatchObject({ customerId: 'C1001', name: 'Quillfeather Stationers' });
    });

    it('answers invalid arguments with an isError result naming the field', async () => {
      const reply = await gw.rpc('tools/call', { name: 'customer_lookup', arguments: { customerId: 42 } });
      expect(reply.result?.isError).toBe(true);
      expect(textOf(reply)).toContain('arguments.customerId must be string');
      const missing = await gw.rpc('tools/call', { name: 'echo_text', arguments: {} });
      expect(textOf(missing)).toContain('arguments.text is required');
    });

    it.each([
      ['a 500', 'always_fails', {}, 'answered HTTP 500'],
      ['a reply that is not JSON', 'non_json_reply', {}, 'is not JSON'],
      ['a reply without data', 'missing_data_field', {}, 'has no "data" member'],
      ['a tool slower than its manifest timeout', 'slow_operation', { delayMillis: 5_000 }, 'no complete reply within 1000 ms'],
      ['a refused connection', 'offline_tool', {}, 'refused the connection'],
    ])('turns %s into an isError result', async (_, name, args, text) => {
      const reply = await gw.rpc('tools/call', { name, arguments: args });
      expect(reply.error).toBeUndefined();
      expect(reply.result?.isError).toBe(true);
      expect(textOf(reply)).toContain(text);
    });
  });

  describe('correlation (SPEC G2, G11)', () => {
    beforeEach(() => tools.clearCalls());

    it('passes the caller headers and the caller identity to the tool service and echoes the ids', async () => {
      const headers = {
        guid: 'guid-123',
        'x-request-id': 'req-456',
        'mcp-session-id': 'sess-789',
        'employee-no': 'ENC(emp-1)',
        'virtual-employee-no': 'ENC(v-2)',
      };
      const res = await gw.post(
        { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo_text', arguments: { text: 'x' } } },
        headers,
      );
      expect([res.headers.get('guid'), res.headers.get('x-request-id')]).toEqual(['guid-123', 'req-456']);
      const [call] = await tools.calls();
      expect(call.headers).toEqual({
        guid: 'guid-123',
        'x-request-id': 'req-456',
        'mcp-session-id': 'sess-789',
        'employee-no': 'ENC(emp-1)',
        'virtual-employee-no': 'ENC(v-2)',
        'x-caller-ip': '10.1.2.3',
        'x-caller-host': 'gateway-pod-0',
        'content-type': 'application/json',
        'idempotency-key': expect.stringMatching(/^"[A-Za-z0-9_-]{43}"$/), // idempotency-key.e2e.spec.ts
      });
    });

    it('generates guid and x-request-id when absent and sends the same values downstream', async () => {
      const res = await gw.post({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo_text', arguments: { text: 'x' } } });
      const [call] = await tools.calls();
      expect(res.headers.get('guid')).toMatch(/^[0-9a-f-]{36}$/);
      expect(call.headers.guid).toBe(res.headers.get('guid'));
      expect(call.headers['x-request-id']).toBe(res.headers.get('x-request-id'));
    });

    it('does not forward Authorization unless configured to', async () => {
      await gw.post(
        { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo_text', arguments: { text: 'x' } } },
        { authorization: 'Bearer caller-token' },
      );
      expect((await tools.calls())[0].headers.authorization).toBeUndefined();
    });

    it('refuses correlation values carrying injection characters', async () => {
      const res = await gw.post({ jsonrpc: '2.0', id: 1, method: 'ping' }, { guid: 'a b;c' });
      expect(res.status).toBe(400);
      expect(await tools.calls()).toEqual([]);
    });
  });

  describe('privacy of the logs (SPEC G3)', () => {
    it('logs boundary events with guid and requestId and none of the secrets a request carries', async () => {
      const secrets = {
        employee: 'EMP-SECRET-7731',
        virtualEmployee: 'VEMP-SECRET-1187',
        authorization: 'Bearer tok-SECRET-5521',
        cookie: 'sid=COOKIE-SECRET-9981',
        session: 'SESSION-SECRET-4417',
        argument: 'ARGUMENT-SECRET-3319',
      };
      await gw.post(
        { jsonrpc: '2.0', id: 77, method: 'tools/call', params: { name: 'echo_text', arguments: { text: secrets.argument } } },
        {
          guid: 'privacy-guid',
          'x-request-id': 'privacy-req',
          'employee-no': secrets.employee,
          'virtual-employee-no': secrets.virtualEmployee,
          authorization: secrets.authorization,
          cookie: secrets.cookie,
          'mcp-session-id': secrets.session,
        },
      );
      await gw.rpc('tools/call', { name: 'customer_lookup', arguments: { customerId: secrets.argument } }); // invalid: echoed in the result only
      await new Promise((resolve) => setTimeout(resolve, 50));
      const logs = gw.logs();
      for (const secret of Object.values(secrets)) expect(logs).not.toContain(secret);
      for (const event of ['mcp_http_request_received', 'tool_call_completed', 'mcp_http_response_completed']) {
        expect(logs).toMatch(new RegExp(`event=${event} .*guid=privacy-guid requestId=privacy-req`));
      }
    });
  });
});

describe('deadlines (SPEC G12)', () => {
  const { gateway } = useGatewayWithSampleService((config) => {
    config.mcp.requestDeadlineMillis = 400;
  });

  it('cuts the outbound timeout to what is left of the request budget', async () => {
    const reply = await gateway().rpc('tools/call', { name: 'slow_operation', arguments: { delayMillis: 3_000 } });
    expect(reply.result?.isError).toBe(true);
    const allowed = Number(/no complete reply within (\d+) ms/.exec(textOf(reply))?.[1]);
    expect(allowed).toBeGreaterThan(0);
    expect(allowed).toBeLessThanOrEqual(400); // the budget, not the manifest's 1000 ms
  });
});
