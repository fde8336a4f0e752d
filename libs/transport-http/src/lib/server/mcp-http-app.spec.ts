import { connect } from 'node:net';
import { PassThrough } from 'node:stream';

import { type ParsedMessage, serializeResultResponse } from '@toolmesh/protocol';

import { createLogger } from '../logging/logger';
import type { McpDispatcher } from './dispatch-outcome';
import { listenHttp, type RunningHttpServer } from './http-server';
import { createMcpHttpApp } from './mcp-http-app';
import { LOOPBACK_ORIGIN_POLICY } from './origin-guard';
import type { RequestContext } from './request-context';

const VERSION = '2025-11-25';
const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': VERSION };

describe('MCP HTTP front', () => {
  let server: RunningHttpServer;
  let url: string;
  const seen: Array<{ message: ParsedMessage; context: RequestContext }> = [];
  let logs = '';
  const dispatch: McpDispatcher = async (message, context) => {
    seen.push({ message, context });
    if (message.kind !== 'request') return undefined;
    if (message.message.method === 'explode') throw new Error('handler bug');
    if (message.message.method === 'stream') return { open: (stream) => (stream.send('{"jsonrpc":"2.0","method":"n"}'), stream.end()) };
    if (message.message.method === 'large') {
      return { status: 200, json: serializeResultResponse(message.message.id, { pad: 'x'.repeat(600) }), isError: false };
    }
    if (message.message.method === 'teapot') {
      return { status: 418, json: serializeResultResponse(message.message.id, {}), isError: false, headers: { 'x-era': 'test' } };
    }
    return { status: 200, json: serializeResultResponse(message.message.id, { echoed: message.message.method }), isError: false };
  };

  beforeAll(async () => {
    const stream = new PassThrough();
    stream.on('data', (chunk) => (logs += chunk));
    const app = createMcpHttpApp({
      endpointPath: '/mcp',
      maxBodyBytes: 1024,
      requestDeadlineMillis: 5_000,
      originPolicy: LOOPBACK_ORIGIN_POLICY,
      logger: createLogger({ stream }),
      dispatch,
      batches: { accepts: (context) => context.headers?.['mcp-protocol-version'] === '2025-03-26', maxMembers: 5, maxResponseBytes: 1024 },
    });
    server = await listenHttp(app, { port: 0, host: '127.0.0.1' });
    url = `${server.url}/mcp`;
  });
  afterAll(() => server.close());
  beforeEach(() => {
    seen.length = 0;
  });

  const post = (body: string, headers: Record<string, string> = {}) =>
    fetch(url, { method: 'POST', headers: { ...HEADERS, ...headers }, body });

  async function jsonOf(res: Response): Promise<{ error?: { code: number; message: string }; id?: unknown; result?: unknown }> {
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    return (await res.json()) as never;
  }

  it('answers a request with a single JSON response, whatever the Accept header allows', async () => {
    const res = await post('{"jsonrpc":"2.0","id":1,"method":"ping"}');
    expect(res.status).toBe(200);
    expect(await jsonOf(res)).toEqual({ jsonrpc: '2.0', id: 1, result: { echoed: 'ping' } });
  });

  it('answers malformed JSON with -32700 as JSON, never HTML', async () => {
    const res = await post('{"jsonrpc":"2.0",');
    expect(res.status).toBe(400);
    expect((await jsonOf(res)).error?.code).toBe(-32700);
    expect(seen).toHaveLength(0);
  });

  it('refuses a batch with -32600 where the application accepts none', async () => {
    const res = await post('[{"jsonrpc":"2.0","id":1,"method":"ping"}]');
    expect(res.status).toBe(400);
    expect((await jsonOf(res)).error?.code).toBe(-32600);
    expect(seen).toHaveLength(0);
  });

  describe('where the application accepts a batch', () => {
    const batch = (body: string) => post(body, { 'mcp-protocol-version': '2025-03-26' });

    it('answers each message as it would be alone, in one JSON array: results, errors, and nothing for notifications', async () => {
      const res = await batch(
        '[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"note"},{"jsonrpc":"2.0","id":2,"method":"explode"},{"id":3},{"jsonrpc":"2.0","id":4,"method":"stream"}]',
      );
      expect(res.status).toBe(200);
      const answers = (await res.json()) as Array<{ id: unknown; result?: unknown; error?: { code: number } }>;
      expect(answers).toEqual([
        { jsonrpc: '2.0', id: 1, result: { echoed: 'ping' } },
        { jsonrpc: '2.0', id: 2, error: expect.objectContaining({ code: -32603 }) },
        { jsonrpc: '2.0', id: 3, error: expect.objectContaining({ code: -32600 }) },
        {
          jsonrpc: '2.0',
          id: 4,
          error: expect.objectContaining({ code: -32600, message: expect.stringContaining('cannot be part of a batch') }),
        },
      ]);
      expect(seen.map(({ message }) => message.kind)).toEqual(['request', 'notification', 'request', 'request']);
    });

    it('answers a batch of notifications and responses with 202 and no body', async () => {
      const res = await batch('[{"jsonrpc":"2.0","method":"a"},{"jsonrpc":"2.0","id":9,"result":{}}]');
      expect(res.status).toBe(202);
      expect(await res.text()).toBe('');
    });

    it('refuses a batch of more than maxMembers messages whole, with one -32600, before any member runs', async () => {
      const res = await batch(`[${Array.from({ length: 6 }, (_, id) => `{"jsonrpc":"2.0","id":${id},"method":"ping"}`).join(',')}]`);
      expect(res.status).toBe(400);
      expect(await jsonOf(res)).toEqual({
        jsonrpc: '2.0',
        id: null,
        error: {
          code: -32600,
          message: expect.stringContaining('6 messages, more than maxBatchMembers (5)'),
          data: { limit: 'maxBatchMembers', maximum: 5 },
        },
      });
      expect(seen).toHaveLength(0);
    });

    it('answers the requests left once the responses reach maxResponseBytes with -32600, without running them', async () => {
      const res = await batch(
        '[{"jsonrpc":"2.0","id":1,"method":"large"},{"jsonrpc":"2.0","id":2,"method":"large"},{"jsonrpc":"2.0","id":3,"method":"ping"},{"jsonrpc":"2.0","method":"note"}]',
      );
      expect(res.status).toBe(200);
      const answers = (await res.json()) as Array<{
        id: unknown;
        result?: unknown;
        error?: { code: number; message: string; data: unknown };
      }>;
      expect(answers.map(({ id }) => id)).toEqual([1, 2, 3]);
      expect(answers[1].result).toEqual({ pad: 'x'.repeat(600) }); // the response that crossed the limit is whole
      expect(answers[2].error).toEqual({
        code: -32600,
        message: expect.stringContaining('past maxBatchResponseBytes (1024)'),
        data: { limit: 'maxBatchResponseBytes', maximum: 1024 },
      });
      // the notification still reaches the application; the request past the limit never does
      expect(seen.map(({ message }) => (message.kind === 'response' ? message.kind : message.message.method))).toEqual([
        'large',
        'large',
        'note',
      ]);
    });

    it('applies the body limit to the whole batch, and answers an empty one with a single -32600', async () => {
      const member = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(300) } });
      expect((await batch(`[${member},${member},${member},${member}]`)).status).toBe(413);
      const empty = await batch('[]');
      expect(empty.status).toBe(400);
      expect((await jsonOf(empty)).error?.code).toBe(-32600);
      expect(seen).toHaveLength(0);
    });
  });

  it('refuses a body over the limit with -32600 before any handler runs', async () => {
    const res = await post(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(2000) } }));
    expect(res.status).toBe(413);
    expect((await jsonOf(res)).error).toMatchObject({ code: -32600, message: expect.stringContaining('exceeds 1024 bytes') });
    expect(seen).toHaveLength(0);
  });

  it('refuses a chunked body that grows over the limit while streaming', async () => {
    const raw = await rawRequest(
      `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nmcp-protocol-version: ${VERSION}\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n` +
        `800\r\n${'x'.repeat(0x800)}\r\n0\r\n\r\n`,
    );
    expect(raw).toMatch(/^HTTP\/1\.1 413/);
    expect(seen).toHaveLength(0);
  });

  it('leaves versions to the application: a request with no MCP-Protocol-Version reaches it', async () => {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
    });
    expect(res.status).toBe(200);
    expect(seen[0].context.headers?.['mcp-protocol-version']).toBeUndefined();
  });

  it("answers with the application's status and headers", async () => {
    const res = await post('{"jsonrpc":"2.0","id":1,"method":"teapot"}');
    expect(res.status).toBe(418);
    expect(res.headers.get('x-era')).toBe('test');
    expect(res.headers.get('content-type')).toBe('application/json');
  });

  it('opens an event stream when the application answers with one, unbuffered by proxies', async () => {
    const res = await post('{"jsonrpc":"2.0","id":1,"method":"stream"}');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    expect(res.headers.get('x-accel-buffering')).toBe('no');
    expect(await res.text()).toBe('event: message\ndata: {"jsonrpc":"2.0","method":"n"}\n\n');
  });

  it('acknowledges a notification with 202 and an empty body', async () => {
    const res = await post('{"jsonrpc":"2.0","method":"notifications/initialized"}');
    expect(res.status).toBe(202);
    expect(await res.text()).toBe('');
    expect(seen[0].message.kind).toBe('notification');
  });

  it('refuses a foreign Origin or Host with 403', async () => {
    expect((await post('{"jsonrpc":"2.0","id":1,"method":"ping"}', { origin: 'http://evil.example.com' })).status).toBe(403);
    const raw = await rawRequest(
      `POST /mcp HTTP/1.1\r\nHost: evil.example.com\r\nContent-Type: application/json\r\nmcp-protocol-version: ${VERSION}\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`,
    );
    expect(raw).toMatch(/^HTTP\/1\.1 403/);
    expect((await post('{"jsonrpc":"2.0","id":1,"method":"ping"}', { origin: 'http://localhost:6274' })).status).toBe(200);
    expect(seen).toHaveLength(1);
  });

  it('refuses a body that is not declared as JSON with 415', async () => {
    const res = await post('{"jsonrpc":"2.0","id":1,"method":"ping"}', { 'content-type': 'text/plain' });
    expect(res.status).toBe(415);
    expect((await jsonOf(res)).error?.code).toBe(-32600);
  });

  it('generates guid and x-request-id when absent and echoes them when present', async () => {
    const generated = await post('{"jsonrpc":"2.0","id":1,"method":"ping"}');
    expect(generated.headers.get('guid')).toMatch(/^[0-9a-f-]{36}$/);
    expect(generated.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const echoed = await post('{"jsonrpc":"2.0","id":1,"method":"ping"}', {
      guid: 'g-1',
      'x-request-id': 'r-1',
      'mcp-session-id': 's-1',
      'employee-no': 'E 12=3',
    });
    expect([echoed.headers.get('guid'), echoed.headers.get('x-request-id')]).toEqual(['g-1', 'r-1']);
    expect(seen.at(-1)?.context).toMatchObject({ guid: 'g-1', requestId: 'r-1', sessionId: 's-1', employeeNo: 'E 12=3' });
  });

  it.each([
    ['a result', '{"jsonrpc":"2.0","id":1,"method":"ping"}', {}, 200],
    ['an event stream', '{"jsonrpc":"2.0","id":1,"method":"stream"}', {}, 200],
    ['a notification', '{"jsonrpc":"2.0","method":"notifications/initialized"}', {}, 202],
    ['a parse error', '{"jsonrpc":', {}, 400],
    ['a wrong Content-Type', '{"jsonrpc":"2.0","id":1,"method":"ping"}', { 'content-type': 'text/plain' }, 415],
    ['a foreign Origin', '{"jsonrpc":"2.0","id":1,"method":"ping"}', { origin: 'http://evil.example.com' }, 403],
  ])('echoes the correlation ids on %s', async (_what, body, headers, status) => {
    const res = await post(body, { guid: 'g-echo', 'x-request-id': 'r-echo', ...headers });
    expect(res.status).toBe(status);
    expect([res.headers.get('guid'), res.headers.get('x-request-id')]).toEqual(['g-echo', 'r-echo']);
    await res.text();
  });

  it.each([
    ['guid', 'has spaces'],
    ['x-request-id', 'x'.repeat(129)],
    ['mcp-session-id', 'a/b'],
  ])('refuses a malformed %s header', async (header, value) => {
    const res = await post('{"jsonrpc":"2.0","id":1,"method":"ping"}', { [header]: value });
    expect(res.status).toBe(400);
    expect((await jsonOf(res)).error?.message).toContain(`header ${header}`);
  });

  it.each([
    ['employee-no', 'E1\u00c9', /header employee-no must be 1-1024 visible ASCII characters/],
    ['virtual-employee-no', 'V1\u007f', /^/], // DEL: refused by Node's own parser already
  ])('refuses %s values with bytes that are not visible ASCII', async (header, value, body) => {
    const raw = await rawRequest(
      `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n${header}: ${value}\r\nContent-Type: application/json\r\nmcp-protocol-version: ${VERSION}\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`,
    );
    expect(raw).toMatch(/^HTTP\/1\.1 400/);
    expect(raw).toMatch(body);
    expect(seen).toHaveLength(0);
  });

  it.each(['employee-no', 'virtual-employee-no', 'guid'])('refuses a repeated %s rather than joining its values', async (header) => {
    const raw = await rawRequest(
      `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n${header}: A\r\n${header}: B\r\nContent-Type: application/json\r\nmcp-protocol-version: ${VERSION}\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`,
    );
    expect(raw).toMatch(/^HTTP\/1\.1 400/);
    expect(raw).toContain(`header ${header} must be sent once`);
    expect(seen).toHaveLength(0);
  });

  it('keeps an employee-no sent once with a comma in it, as it was sent', async () => {
    const res = await post('{"jsonrpc":"2.0","id":1,"method":"ping"}', { 'employee-no': 'A, B' });
    expect(res.status).toBe(200);
    expect(seen.at(-1)?.context.employeeNo).toBe('A, B');
  });

  it('refuses CR/LF in a header (header injection) without reaching any handler', async () => {
    const raw = await rawRequest(
      `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nemployee-no: E1\rX-Injected: yes\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`,
    );
    expect(raw).toMatch(/^HTTP\/1\.1 400/);
    expect(seen).toHaveLength(0);
  });

  it('turns a failing handler into -32603 with the request id, and keeps serving', async () => {
    const res = await post('{"jsonrpc":"2.0","id":9,"method":"explode"}');
    expect(res.status).toBe(500);
    expect(await jsonOf(res)).toEqual({ jsonrpc: '2.0', id: 9, error: { code: -32603, message: 'Internal error' } });
    expect((await post('{"jsonrpc":"2.0","id":1,"method":"ping"}')).status).toBe(200);
  });

  it('answers other methods and paths with JSON errors', async () => {
    const get = await fetch(url, { headers: HEADERS });
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    expect((await jsonOf(get)).error?.code).toBe(-32600);
    const other = await fetch(`${server.url}/elsewhere`, { method: 'POST', headers: HEADERS, body: '{}' });
    expect(other.status).toBe(404);
    expect((await jsonOf(other)).error?.code).toBe(-32600);
  });

  it('logs each exchange at its boundaries with guid and requestId, and the method only', async () => {
    logs = '';
    await post('{"jsonrpc":"2.0","id":1,"method":"ping","params":{"secret":"p4ssw0rd"}}', { guid: 'log-guid', 'x-request-id': 'log-req' });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(logs).toMatch(/event=mcp_http_request_received method=ping guid=log-guid requestId=log-req/);
    expect(logs).toMatch(/event=mcp_http_response_completed method=ping status=200 durationMs=\d+ guid=log-guid requestId=log-req/);
    expect(logs).not.toContain('p4ssw0rd');
  });

  function rawRequest(text: string): Promise<string> {
    return new Promise((resolve, reject) => {
      const socket = connect(Number(new URL(url).port), '127.0.0.1', () => socket.end(Buffer.from(text, 'latin1')));
      let reply = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk) => (reply += chunk));
      socket.on('end', () => resolve(reply));
      socket.on('error', reject);
    });
  }
});
