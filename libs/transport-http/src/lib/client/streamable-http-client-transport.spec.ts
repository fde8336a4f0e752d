import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import { Client } from '@modelcontextprotocol/client';
import type { JSONRPCMessage } from '@toolmesh/protocol';
import { type HttpPeer, startHttpPeer } from '@toolmesh/test-peers/peers/http-peer';
import { eventually } from '@toolmesh/test-peers/process-table';
import { Agent } from 'undici';

import { type HttpClientError, HttpClientErrorCode } from './http-client-errors';
import { StreamableHttpClientTransport } from './streamable-http-client-transport';

const clientInfo = { name: 'transport-http-test', version: '0.0.0' };
const TOKEN = 'Bearer s3cr3t-token-value';
let dispatcher: Agent;

beforeAll(() => {
  dispatcher = new Agent({ keepAliveTimeout: 10_000 });
});
afterAll(() => dispatcher.close());

/** The SDK's own client over the transport: a transport test needs no more (libs/mcp-client tests ours over it). */
function client(url: string, options: Partial<ConstructorParameters<typeof StreamableHttpClientTransport>[1]> = {}) {
  const transport = new StreamableHttpClientTransport(new URL(url), { dispatcher, headers: { authorization: TOKEN }, ...options });
  return { transport, mcp: new Client(clientInfo) };
}

describe('StreamableHttpClientTransport against the SDK server', () => {
  describe('with SSE replies and a session', () => {
    let peer: HttpPeer;
    beforeAll(async () => {
      peer = await startHttpPeer();
    });
    afterAll(() => peer.stop());

    it('initializes, calls tools, and sends the session id and protocol version on every later request', async () => {
      const { transport, mcp } = client(peer.url);
      await mcp.connect(transport);
      expect((await mcp.callTool({ name: 'add', arguments: { a: 40, b: 2 } })).content).toEqual([{ type: 'text', text: '42' }]);
      const sessionId = transport.sessionId;
      const protocolVersion = mcp.getNegotiatedProtocolVersion();
      await mcp.close();

      const posts = (await peer.requests()).filter((r) => r.sessionId === sessionId || r.sessionId === null);
      const [initialize, ...later] = posts;
      expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);
      expect(initialize).toMatchObject({ method: 'POST', sessionId: null, authorization: TOKEN });
      expect(later.length).toBeGreaterThanOrEqual(3); // initialized, tools/call, GET stream, DELETE
      for (const request of later) expect(request).toMatchObject({ sessionId, protocolVersion, authorization: TOKEN });
      expect(later.map((r) => r.method)).toEqual(expect.arrayContaining(['GET', 'DELETE']));
    });

    it('delivers notifications the server sends on the GET stream, outside any request', async () => {
      const { transport, mcp } = client(peer.url);
      const seen: string[] = [];
      mcp.setNotificationHandler('notifications/message', (notification) => void seen.push(notification.method));
      await mcp.connect(transport);
      await mcp.callTool({ name: 'notify-later', arguments: {} });

      expect(await eventually(() => seen.includes('notifications/message'))).toBe(true);
      await mcp.close();
    });
  });

  it.each([[['--json']], [['--json', '--stateless']]])('works with JSON replies (%j)', async (flags) => {
    const peer = await startHttpPeer(flags);
    try {
      const { transport, mcp } = client(peer.url, { listen: false });
      await mcp.connect(transport);
      expect((await mcp.listTools()).tools.map((t) => t.name)).toEqual(['add', 'echo', 'slow', 'notify-later']);
      expect((await mcp.callTool({ name: 'echo', arguments: { text: 'json' } })).content).toEqual([{ type: 'text', text: 'json' }]);
      await mcp.close();
    } finally {
      await peer.stop();
    }
  });
});

describe('StreamableHttpClientTransport against a misbehaving server', () => {
  let server: Server;
  let base: string;
  let reply: (req: IncomingMessage, res: ServerResponse, message: { id?: number; method?: string }) => void;

  beforeAll(async () => {
    server = createServer(async (req, res) => {
      let body = '';
      for await (const chunk of req) body += chunk;
      reply(req, res, body ? JSON.parse(body) : {});
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp?api_key=query-secret`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  /** A reply within the size limit (1024 bytes) whose result nests 300 levels deep. */
  const DEEP_REPLY = `{"jsonrpc":"2.0","id":1,"result":{"tools":${'['.repeat(300)}${']'.repeat(300)}}}`;

  async function sendOne(): Promise<{ messages: JSONRPCMessage[]; errors: HttpClientError[]; sent: Promise<void> }> {
    const transport = new StreamableHttpClientTransport(new URL(base), {
      dispatcher,
      headers: { authorization: TOKEN },
      maxMessageBytes: 1024,
    });
    const messages: JSONRPCMessage[] = [];
    const errors: HttpClientError[] = [];
    transport.onmessage = (m) => messages.push(m);
    transport.onerror = (e) => errors.push(e as HttpClientError);
    await transport.start();
    const sent = transport.send({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    await sent.catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 50));
    await transport.close();
    return { messages, errors, sent };
  }

  function expectNoSecrets(error: Error) {
    expect(error.message).not.toContain('s3cr3t');
    expect(error.message).not.toContain('query-secret');
  }

  it('rejects a 401 with the status and a hint, never the credentials', async () => {
    reply = (_req, res) => res.writeHead(401).end('no');
    const { sent } = await sendOne();
    const error = await sent.then(
      () => undefined,
      (e: HttpClientError) => e,
    );
    expect(error).toMatchObject({ code: HttpClientErrorCode.HttpStatus, status: 401 });
    expect(error?.message).toContain('check the credentials');
    expectNoSecrets(error as Error);
  });

  it("quotes a refusal's JSON-RPC error message, escaped and cut, and nothing of any other body", async () => {
    const quoted = (body: string) => {
      reply = (_req, res) => res.writeHead(404, { 'content-type': 'application/json' }).end(body);
      return sendOne().then(({ sent }) =>
        sent.then(
          () => '',
          (e: Error) => e.message,
        ),
      );
    };
    expect(
      await quoted(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'no MCP endpoint at /nope; use /mcp' } })),
    ).toMatch(/answered HTTP 404: no MCP endpoint at \/nope; use \/mcp$/);
    expect(
      await quoted(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32600, message: `\u001b[31m${'x'.repeat(300)}` } })),
    ).toMatch(/answered HTTP 404: \\u001b\[31mx{195}\.\.\.$/);
    expect(await quoted('<html>not found: s3cr3t</html>')).toMatch(/answered HTTP 404$/);
  });

  it('rejects an HTML reply as an unexpected content type', async () => {
    reply = (_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html>proxy login</html>');
    const { sent } = await sendOne();
    await expect(sent).rejects.toMatchObject({ code: HttpClientErrorCode.UnexpectedContentType });
  });

  it.each([
    ['invalid JSON', 'application/json', '{"jsonrpc":"2.0","id":1,"res', [HttpClientErrorCode.MalformedMessage]],
    // An SSE reply that ends without the answer and without an event id cannot be resumed: said so too.
    [
      'an SSE event that is not JSON-RPC',
      'text/event-stream',
      'event: message\ndata: {"hello":1}\n\n',
      [HttpClientErrorCode.MalformedMessage, HttpClientErrorCode.StreamEnded],
    ],
  ])('drops %s with a clear error and stays usable', async (_, contentType, body, codes) => {
    reply = (_req, res) => res.writeHead(200, { 'content-type': contentType }).end(body);
    const { messages, errors } = await sendOne();
    expect(messages).toEqual([]);
    expect(errors.map((e) => e.code)).toEqual(codes);
    errors.forEach(expectNoSecrets);
  });

  it.each([
    ['a JSON body', 'application/json', JSON.stringify({ jsonrpc: '2.0', id: 1, result: { pad: 'x'.repeat(5000) } })],
    ['an SSE event', 'text/event-stream', `id: e1\ndata: ${'x'.repeat(5000)}\n\n`],
  ])(
    'answers the request itself when the reply is %s over the size limit, so it fails at once and is not fetched again',
    async (_, contentType, body) => {
      let requests = 0;
      reply = (_req, res) => {
        requests += 1;
        res.writeHead(200, { 'content-type': contentType }).end(body);
      };
      const { messages, errors } = await sendOne();
      expect(messages).toEqual([
        expect.objectContaining({
          id: 1,
          error: expect.objectContaining({
            message: expect.stringContaining("over this client's limit of 1024 bytes; it was dropped [http.message_too_large]"),
          }),
        }),
      ]);
      expect(errors.map((e) => e.code)).toEqual([HttpClientErrorCode.MessageTooLarge]);
      await new Promise((resolve) => setTimeout(resolve, 1200)); // past the 1 s resume delay
      expect(requests).toBe(1);
    },
  );

  it.each([
    ['a JSON body', 'application/json', DEEP_REPLY],
    ['an SSE event', 'text/event-stream', `id: e1\ndata: ${DEEP_REPLY}\n\n`],
  ])('answers the request itself, unparsed, when the reply is %s nested deeper than 256 levels', async (_, contentType, body) => {
    let requests = 0;
    reply = (_req, res) => {
      requests += 1;
      res.writeHead(200, { 'content-type': contentType }).end(body);
    };
    const { messages, errors } = await sendOne();
    expect(messages).toEqual([
      expect.objectContaining({
        id: 1,
        error: expect.objectContaining({ data: { reason: HttpClientErrorCode.MessageTooDeep, limit: 256 } }),
      }),
    ]);
    expect(errors.map((e) => e.code)).toEqual([HttpClientErrorCode.MessageTooDeep]);
    expect(requests).toBe(1);
  });

  it('ignores a body a server sends with 200 instead of 202 to a notification', async () => {
    reply = (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"jsonrpc":"2.0","result":{}}');
    const transport = new StreamableHttpClientTransport(new URL(base), { dispatcher, listen: false });
    const events: unknown[] = [];
    transport.onmessage = (m) => events.push(m);
    transport.onerror = (e) => events.push(e);
    await transport.start();
    await transport.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    await transport.close();
    expect(events).toEqual([]);
  });

  it("resumes a reply stream the server ended early: GET with Last-Event-ID after the server's retry delay", async () => {
    const gets: Array<string | undefined> = [];
    reply = (req, res) => {
      if (req.method === 'POST') {
        // Priming event (id and retry, empty data), then the stream ends without the answer.
        res.writeHead(200, { 'content-type': 'text/event-stream' }).end('id: e-1\nretry: 20\ndata: \n\n');
      } else {
        gets.push(req.headers['last-event-id'] as string | undefined);
        res
          .writeHead(200, { 'content-type': 'text/event-stream' })
          .end(`id: e-2\nevent: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: 1, result: { tools: [] } })}\n\n`);
      }
    };
    const transport = new StreamableHttpClientTransport(new URL(base), { dispatcher, listen: false });
    const messages: JSONRPCMessage[] = [];
    const errors: Error[] = [];
    transport.onmessage = (m) => messages.push(m);
    transport.onerror = (e) => errors.push(e);
    await transport.start();

    await transport.send({ jsonrpc: '2.0', id: 1, method: 'tools/list' });

    expect(await eventually(() => messages.length === 1, 5000)).toBe(true);
    expect(messages).toEqual([{ jsonrpc: '2.0', id: 1, result: { tools: [] } }]);
    expect(gets).toEqual(['e-1']); // once: the answer came, nothing more is owed
    expect(errors).toEqual([]); // the priming event is not a malformed message
    await transport.close();
  });

  it('reads a reply stream to its end after the answer: what follows it is still delivered', async () => {
    const answer = { jsonrpc: '2.0', id: 1, result: { tools: [] } };
    const after = { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'after the answer' } };
    reply = (_req, res) =>
      res
        .writeHead(200, { 'content-type': 'text/event-stream' })
        .end(`event: message\ndata: ${JSON.stringify(answer)}\n\nevent: message\ndata: ${JSON.stringify(after)}\n\n`);
    const transport = new StreamableHttpClientTransport(new URL(base), { dispatcher, listen: false });
    const messages: JSONRPCMessage[] = [];
    transport.onmessage = (m) => messages.push(m);
    await transport.start();
    await transport.send({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    expect(await eventually(() => messages.length === 2, 5000)).toBe(true);
    expect(messages).toEqual([answer, after]);
    await transport.close();
  });

  it('turns a 404 to a request with a session into http.session_expired', async () => {
    let calls = 0;
    reply = (_req, res, message) => {
      calls += 1;
      if (calls === 1) {
        res.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': 'abc' });
        res.end(
          JSON.stringify({
            jsonrpc: '2.0',
            id: message.id,
            result: { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 's', version: '1' } },
          }),
        );
      } else {
        res.writeHead(404).end();
      }
    };
    const transport = new StreamableHttpClientTransport(new URL(base), { dispatcher, listen: false });
    transport.onmessage = () => undefined;
    await transport.start();
    await transport.send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} });
    expect(transport.sessionId).toBe('abc');
    await expect(transport.send({ jsonrpc: '2.0', id: 2, method: 'ping' })).rejects.toMatchObject({
      code: HttpClientErrorCode.SessionExpired,
    });
    expect(transport.sessionId).toBeUndefined();
    await transport.close();
  });

  it('reports a refused connection as http.request_failed', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const transport = new StreamableHttpClientTransport(new URL(`http://127.0.0.1:${port}/mcp`), {
      dispatcher,
      headers: { authorization: TOKEN },
    });
    await transport.start();
    const error = await transport.send({ jsonrpc: '2.0', id: 1, method: 'ping' }).then(
      () => undefined,
      (e: HttpClientError) => e,
    );
    expect(error).toMatchObject({ code: HttpClientErrorCode.RequestFailed });
    expectNoSecrets(error as Error);
  });
});

describe("StreamableHttpClientTransport's owner hooks", () => {
  it("sends each message's own headers from messageHeaders, never over the ones the transport owns", async () => {
    const peer = await startHttpPeer();
    try {
      const { transport, mcp } = client(peer.url, {
        messageHeaders: (message): Record<string, string> =>
          'method' in message ? { 'x-rpc-method': message.method, authorization: 'Bearer forged' } : {},
      });
      await mcp.connect(transport);
      await mcp.callTool({ name: 'add', arguments: { a: 1, b: 2 } });
      await mcp.close();
      const call = (await peer.requests()).find((request) => request.rpcMethod === 'tools/call');
      expect(call?.headers).toMatchObject({ 'x-rpc-method': 'tools/call', authorization: TOKEN });
    } finally {
      await peer.stop();
    }
  });

  it('tells its owner when the GET notification stream is over for good: the server went away', async () => {
    const peer = await startHttpPeer();
    let ended = 0;
    const { transport, mcp } = client(peer.url, { onListenEnded: () => void (ended += 1) });
    try {
      await mcp.connect(transport);
      let listening = false;
      const poll = () => void peer.requests().then((requests) => (listening = requests.some((request) => request.method === 'GET')));
      expect(await eventually(() => (poll(), listening))).toBe(true);
      await peer.stop();
      expect(await eventually(() => ended === 1, 15_000)).toBe(true);
    } finally {
      await mcp.close();
    }
  }, 30_000);
});
