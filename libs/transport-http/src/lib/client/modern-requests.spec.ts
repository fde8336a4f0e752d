import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import { encodeHeaderValue, type JSONRPCMessage, McpMetaKey } from '@toolmesh/protocol';
import { eventually } from '@toolmesh/test-peers/process-table';
import { Agent } from 'undici';

import { HttpClientErrorCode } from './http-client-errors';
import { StreamableHttpClientTransport } from './streamable-http-client-transport';

/** A 2026-07-28 request's `_meta`, as the SDK client puts it on every request of a modern connection. */
const meta = { [McpMetaKey.ProtocolVersion]: '2026-07-28', [McpMetaKey.ClientCapabilities]: {} };

describe('StreamableHttpClientTransport, 2026-07-28 requests', () => {
  let server: Server;
  let url: URL;
  let seen: Array<{ headers: IncomingHttpHeaders; body: { id?: number; method?: string } }>;
  let reply: (res: ServerResponse, message: { id?: number }) => void;
  let dispatcher: Agent;

  beforeAll(async () => {
    dispatcher = new Agent();
    server = createServer(async (req, res) => {
      let text = '';
      for await (const chunk of req) text += chunk;
      const body = JSON.parse(text) as { id?: number };
      seen.push({ headers: req.headers, body });
      reply(res, body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`);
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await dispatcher.close();
  });
  beforeEach(() => {
    seen = [];
    reply = (res, message) =>
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result: { resultType: 'complete', content: [] } }));
  });

  async function open(): Promise<{ transport: StreamableHttpClientTransport; messages: JSONRPCMessage[]; errors: Error[] }> {
    const transport = new StreamableHttpClientTransport(url, { dispatcher, headers: { 'x-team': 'blue' } });
    const messages: JSONRPCMessage[] = [];
    const errors: Error[] = [];
    transport.onmessage = (m) => messages.push(m);
    transport.onerror = (e) => errors.push(e);
    await transport.start();
    return { transport, messages, errors };
  }

  it("sends MCP-Protocol-Version, Mcp-Method and Mcp-Name from the body, and the SDK's Mcp-Param-* headers", async () => {
    const { transport } = await open();
    await transport.send(
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'grüße', arguments: { region: 'eu' }, _meta: meta } },
      // A per-message header may not replace one the transport derives from the body.
      { headers: { 'Mcp-Param-Region': 'eu', 'Mcp-Method': 'tools/list', 'MCP-Protocol-Version': '2025-11-25' } },
    );
    await transport.close();

    expect(seen[0].headers).toMatchObject({
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': `=?base64?${Buffer.from('grüße').toString('base64')}?=`,
      'mcp-param-region': 'eu',
      'x-team': 'blue',
      accept: 'application/json, text/event-stream',
    });
  });

  it('sends no 2026 header for a 2025 request', async () => {
    const { transport } = await open();
    await transport.send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo' } });
    await transport.close();
    expect(Object.keys(seen[0].headers).filter((h) => h.startsWith('mcp-'))).toEqual([]);
  });

  it('delivers a 400 carrying the JSON-RPC error for the request as its answer (-32022 names the versions served)', async () => {
    const error = { code: -32022, message: 'Unsupported protocol version', data: { supported: ['2026-07-28'], requested: '2027-01-01' } };
    reply = (res, message) =>
      res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: message.id, error }));
    const { transport, messages } = await open();
    await transport.send({ jsonrpc: '2.0', id: 7, method: 'server/discover', params: { _meta: meta } });
    await transport.close();
    expect(messages).toEqual([{ jsonrpc: '2.0', id: 7, error }]);
  });

  it("rejects any other refusal of a 2026 request with the status and the server's error text, keeping the body for the era probe", async () => {
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32000, message: 'Bad Request: No valid session ID provided' },
    });
    reply = (res) => res.writeHead(400, { 'content-type': 'application/json' }).end(body);
    const { transport, messages } = await open();
    const refused = await transport.send({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: meta } }).then(
      () => undefined,
      (e: unknown) => e,
    );
    await transport.close();
    expect(messages).toEqual([]);
    expect(refused).toMatchObject({ code: HttpClientErrorCode.HttpStatus, status: 400, body });
    expect((refused as Error).message).toMatch(/answered HTTP 400: Bad Request: No valid session ID provided$/);
  });

  it('aborts one request and its stream when the SDK client aborts its requestSignal, without a report', async () => {
    let streamClosed = false;
    reply = (res) => {
      res.on('close', () => (streamClosed = true));
      res.writeHead(200, { 'content-type': 'text/event-stream' }).write(': open\n\n');
    };
    const { transport, errors } = await open();
    const abort = new AbortController();
    let ended = false;
    await transport.send(
      {
        jsonrpc: '2.0',
        id: 'listen:1',
        method: 'subscriptions/listen',
        params: { _meta: meta, notifications: { toolsListChanged: true } },
      },
      { requestSignal: abort.signal, onRequestStreamEnd: () => (ended = true) },
    );
    abort.abort();
    // The server sees the stream close while the transport stays open.
    expect(await eventually(() => streamClosed)).toBe(true);
    await transport.close();
    expect(errors).toEqual([]);
    expect(ended).toBe(false);
  });

  it('tells the owner of a stream that ended without its answer (a dropped listen stream), instead of reporting it', async () => {
    reply = (res) => res.writeHead(200, { 'content-type': 'text/event-stream' }).end(': bye\n\n');
    const { transport, errors } = await open();
    let ended = false;
    await transport.send(
      { jsonrpc: '2.0', id: 'listen:1', method: 'subscriptions/listen', params: { _meta: meta, notifications: {} } },
      { onRequestStreamEnd: () => (ended = true) },
    );
    expect(await eventually(() => ended)).toBe(true);
    await transport.close();
    expect(errors).toEqual([]);
  });
});

describe('encodeHeaderValue (2026-07-28 value encoding)', () => {
  it.each([
    ['us-west1', 'us-west1'],
    ['us west 1', 'us west 1'],
    [' padded ', `=?base64?${Buffer.from(' padded ').toString('base64')}?=`],
    ['line1\nline2', `=?base64?${Buffer.from('line1\nline2').toString('base64')}?=`],
    ['Hello, 世界', `=?base64?${Buffer.from('Hello, 世界').toString('base64')}?=`],
    ['', '=?base64??='],
    ['=?base64?abc?=', `=?base64?${Buffer.from('=?base64?abc?=').toString('base64')}?=`],
  ])('%j is sent as %j', (value, sent) => {
    expect(encodeHeaderValue(value)).toBe(sent);
  });
});
