import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { ServerNotification } from '@toolmesh/protocol';
import { eventually } from '@toolmesh/test-peers/process-table';
import { StreamableHttpClientTransport } from '@toolmesh/transport-http/client';
import { Agent } from 'undici';

import { McpClientErrorCode } from './client-errors';
import { McpClient } from './mcp-client';

/**
 * McpClient (era auto) over the Streamable HTTP transport against a hand-written 2026-07-28 server, for what the
 * conformance scenarios do not show: cache hints and their invalidation by a change told on the listen
 * stream, the drop of a tool with broken x-mcp-header annotations through the client's own warnings,
 * a -32020 answered by listing again and retrying once, and a relayed call's result passed on unread.
 */
interface Request {
  readonly headers: IncomingHttpHeaders;
  readonly body: { id?: number | string; method?: string; params?: Record<string, unknown> };
}

const SERVER_INFO = { 'io.modelcontextprotocol/serverInfo': { name: 'modern-mock', version: '1.0.0' } };
const GOOD_TOOL = { name: 'lookup', inputSchema: { type: 'object', properties: { region: { type: 'string', 'x-mcp-header': 'Region' } } } };
/** Its result below breaks its output schema: the SDK's `callTool` refuses it, a relayed call passes it on. */
const TYPED_TOOL = { name: 'count', inputSchema: { type: 'object' }, outputSchema: { type: 'object', required: ['n'] } };
const UNTYPED_RESULT = { content: [{ type: 'text', text: 'none' }], structuredContent: { m: 1 }, extra: 'kept' };
const BROKEN_TOOL = {
  name: 'broken\u001b[31m',
  inputSchema: { type: 'object', properties: { score: { type: 'number', 'x-mcp-header': 'Score' } } },
};

describe('McpClient over Streamable HTTP, 2026-07-28', () => {
  let server: Server;
  let url: URL;
  let dispatcher: Agent;
  let requests: Request[];
  let listen: ServerResponse | undefined;
  let headerMismatches: number;
  /** When set, every request is answered with this status and no JSON-RPC body. */
  let refuseWith: number | undefined;

  const json = (res: ServerResponse, status: number, body: unknown) =>
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

  beforeAll(async () => {
    dispatcher = new Agent();
    server = createServer(async (req, res) => {
      let text = '';
      for await (const chunk of req) text += chunk;
      const body = JSON.parse(text) as Request['body'];
      requests.push({ headers: req.headers, body });
      const { id, method } = body;
      if (refuseWith) return void res.writeHead(refuseWith).end('refused');
      if (id === undefined) return void res.writeHead(202).end();
      switch (method) {
        case 'server/discover':
          return json(res, 200, {
            jsonrpc: '2.0',
            id,
            result: {
              resultType: 'complete',
              supportedVersions: ['2026-07-28'],
              capabilities: { tools: { listChanged: true }, resources: { listChanged: true } },
              ttlMs: 0,
              cacheScope: 'private',
              _meta: SERVER_INFO,
            },
          });
        case 'subscriptions/listen':
          listen = res;
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          res.write(
            `event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/subscriptions/acknowledged', params: { notifications: { toolsListChanged: true }, _meta: { 'io.modelcontextprotocol/subscriptionId': id } } })}\n\n`,
          );
          return;
        case 'tools/list':
          return json(res, 200, {
            jsonrpc: '2.0',
            id,
            result: { resultType: 'complete', tools: [GOOD_TOOL, TYPED_TOOL, BROKEN_TOOL], ttlMs: 60_000, cacheScope: 'private' },
          });
        case 'tools/call':
          if (headerMismatches > 0) {
            headerMismatches -= 1;
            return json(res, 400, { jsonrpc: '2.0', id, error: { code: -32020, message: 'Header mismatch: Mcp-Param-Region' } });
          }
          if (body.params?.name === TYPED_TOOL.name)
            return json(res, 200, { jsonrpc: '2.0', id, result: { resultType: 'complete', ...UNTYPED_RESULT } });
          return json(res, 200, { jsonrpc: '2.0', id, result: { resultType: 'complete', content: [{ type: 'text', text: 'found' }] } });
        default:
          return json(res, 404, { jsonrpc: '2.0', id, error: { code: -32601, message: 'Method not found' } });
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`);
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await dispatcher.close();
  });
  beforeEach(() => {
    requests = [];
    listen = undefined;
    headerMismatches = 0;
    refuseWith = undefined;
  });

  const sent = (method: string) => requests.filter((r) => r.body.method === method);

  async function connected() {
    const errors: Error[] = [];
    const notifications: ServerNotification[] = [];
    const client = new McpClient(new StreamableHttpClientTransport(url, { dispatcher }), {
      serverName: 'modern',
      clientInfo: { name: 't', version: '0' },
      requestTimeoutMs: 5000,
      era: 'auto',
      onError: (e) => errors.push(e),
    });
    client.addNotificationListener((event) => notifications.push(event));
    await client.connect();
    return { client, errors, notifications };
  }

  it.each([
    [503, McpClientErrorCode.ConnectFailed, 'HTTP 503'],
    [401, McpClientErrorCode.ConnectFailed, 'requires authorization (HTTP 401)'],
  ])(
    'fails the connection when the probe is answered HTTP %i, saying so (not as a server that closed on it)',
    async (status, code, text) => {
      refuseWith = status;
      const client = new McpClient(new StreamableHttpClientTransport(url, { dispatcher }), {
        serverName: 'modern',
        clientInfo: { name: 't', version: '0' },
        requestTimeoutMs: 5000,
        era: 'auto',
      });
      const error = await client.connect().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toMatchObject({ code, message: expect.stringContaining(text) });
      expect(sent('initialize')).toHaveLength(0);
    },
  );

  it('opens no change stream for a client made for one listing, whose tools/list declares its own capabilities (issue 44)', async () => {
    const client = new McpClient(new StreamableHttpClientTransport(url, { dispatcher }), {
      serverName: 'modern',
      clientInfo: { name: 't', version: '0' },
      requestTimeoutMs: 5000,
      era: 'auto',
      listenForChanges: false,
      serverRequests: { sampling: async () => ({ refused: 'not here' }) },
    });
    try {
      await client.connect();
      await client.listTools();
      expect(sent('subscriptions/listen')).toHaveLength(0);
      expect(sent('tools/list')[0].body.params?._meta).toMatchObject({ 'io.modelcontextprotocol/clientCapabilities': { sampling: {} } });
    } finally {
      await client.close();
    }
  });

  it('serves the tool list from the cache while its ttlMs lasts, and lists again at once when a change is told', async () => {
    const { client, notifications } = await connected();
    expect(client.era).toBe('modern');
    await client.listTools();
    await client.listTools();
    expect(sent('tools/list')).toHaveLength(1);

    listen?.write(
      `event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/tools/list_changed', params: { _meta: { 'io.modelcontextprotocol/subscriptionId': sent('subscriptions/listen')[0].body.id } } })}\n\n`,
    );
    expect(await eventually(() => notifications.some((n) => n.notification.method === 'notifications/tools/list_changed'))).toBe(true);
    await client.listTools();
    expect(sent('tools/list')).toHaveLength(2);
    await client.close();
  });

  it('tells every kind it listens for as changed when its dropped listen stream is opened again: what changed meanwhile was never told', async () => {
    const { client, notifications } = await connected();
    expect(sent('subscriptions/listen')[0].body.params?.notifications).toEqual({ toolsListChanged: true, resourcesListChanged: true });
    listen?.end();
    expect(await eventually(() => sent('subscriptions/listen').length === 2)).toBe(true);
    const told = () => notifications.map((n) => n.notification.method);
    expect(await eventually(() => told().includes('notifications/resources/list_changed'))).toBe(true);
    expect(told()).toContain('notifications/tools/list_changed');
    await client.close();
  });

  it('leaves out a tool whose x-mcp-header annotations break the rules, saying so through its own errors, not the console', async () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      const { client, errors } = await connected();
      expect((await client.listTools()).map((t) => t.name)).toEqual(['lookup', 'count']);
      expect(errors.map((e) => e.message)).toEqual([
        expect.stringMatching(
          /^tool "broken\\u001b\[31m" left out: its x-mcp-header annotations break the 2026-07-28 rules \(.*string, integer or boolean\)$/,
        ),
      ]);
      expect(errors[0]).toMatchObject({ code: McpClientErrorCode.ToolDropped });
      expect(warn).not.toHaveBeenCalled();
      await client.close();
    } finally {
      warn.mockRestore();
    }
  });

  it.each([
    ['callTool', (client: McpClient) => client.callTool('lookup', { region: 'eu-west1' })],
    ['callToolRelayingInput', (client: McpClient) => client.callToolRelayingInput('lookup', { region: 'eu-west1' }, {})],
  ])(
    '%s answers a -32020 (header mismatch) by listing the tools again and retrying the call once, with its Mcp-Param header',
    async (_, call) => {
      const { client } = await connected();
      await client.listTools();
      headerMismatches = 1;
      const result = await call(client);
      expect(result.content).toEqual([{ type: 'text', text: 'found' }]);
      expect(sent('tools/call')).toHaveLength(2);
      expect(sent('tools/list')).toHaveLength(2);
      for (const call of sent('tools/call'))
        expect(call.headers).toMatchObject({ 'mcp-method': 'tools/call', 'mcp-name': 'lookup', 'mcp-param-region': 'eu-west1' });
      await client.close();
    },
  );

  it("passes a relayed call's result on whole, unchecked against the tool's output schema, which callTool checks", async () => {
    const { client } = await connected();
    await client.listTools();
    await expect(client.callTool('count', {})).rejects.toThrow(/output schema/);
    expect(await client.callToolRelayingInput('count', {}, {})).toEqual(UNTYPED_RESULT);
    await client.close();
  });
});
