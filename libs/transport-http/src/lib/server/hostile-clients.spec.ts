import { connect } from 'node:net';
import { PassThrough } from 'node:stream';

import { serializeResultResponse } from '@toolmesh/protocol';

import { createLogger } from '../logging/logger';
import { type ConnectionLimits, listenHttp, type RunningHttpServer } from './http-server';
import { createMcpHttpApp } from './mcp-http-app';
import { LOOPBACK_ORIGIN_POLICY } from './origin-guard';

const MAX_BODY_BYTES = 1024;
const LIMITS = { headersTimeoutMillis: 300, requestTimeoutMillis: 600, keepAliveTimeoutMillis: 300 } satisfies ConnectionLimits;
const PING = '{"jsonrpc":"2.0","id":1,"method":"ping"}';
const POST_HEAD = 'POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nMCP-Protocol-Version: 2025-11-25\r\n';

interface RawExchange {
  /** Everything the server sent before it closed the connection. */
  readonly received: string;
  readonly elapsedMillis: number;
}

/**
 * Opens a raw TCP connection, sends `request`, then `drip` every 50 ms while the connection lasts, and
 * resolves when the server closes it.
 */
function rawExchange(url: string, request: string, drip?: string): Promise<RawExchange> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const started = Date.now();
    let received = '';
    const socket = connect(Number(port), hostname, () => socket.write(request));
    const dripping = drip === undefined ? undefined : setInterval(() => socket.writable && socket.write(drip), 50);
    socket.setEncoding('utf8').on('data', (chunk: string) => (received += chunk));
    socket.on('error', () => undefined); // a reset is asserted through what was received
    socket.once('close', () => {
      clearInterval(dripping);
      resolve({ received, elapsedMillis: Date.now() - started });
    });
  });
}

/** The status and JSON-RPC body of a raw answer; asserts the framing every refusal must have. */
function refusal(received: string): { status: number; body: { jsonrpc: string; id: unknown; error: { code: number } } } {
  const [head, payload] = received.split('\r\n\r\n');
  expect(head).toMatch(/^content-type: application\/json$/im);
  expect(head).toMatch(/^connection: close$/im);
  const body = /^transfer-encoding: chunked$/im.test(head) ? unchunked(payload) : payload;
  return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]), body: JSON.parse(body) };
}

/** The data of a chunked body (the answers Node frames itself have no Content-Length). */
function unchunked(payload: string): string {
  let data = '';
  let rest = payload;
  for (let size = parseInt(rest, 16); size > 0; size = parseInt(rest, 16)) {
    const start = rest.indexOf('\r\n') + 2;
    data += rest.slice(start, start + size);
    rest = rest.slice(start + size + 2);
  }
  return data;
}

describe('hostile clients at the HTTP front (SPEC G26)', () => {
  let server: RunningHttpServer;
  let url: string;

  beforeAll(async () => {
    const app = createMcpHttpApp({
      endpointPath: '/mcp',
      maxBodyBytes: MAX_BODY_BYTES,
      requestDeadlineMillis: 5_000,
      originPolicy: LOOPBACK_ORIGIN_POLICY,
      logger: createLogger({ stream: new PassThrough().resume() }),
      // Slower than the request timeout: the handler's own time must not count against it.
      dispatch: async (message) => {
        await new Promise((resolve) => setTimeout(resolve, LIMITS.requestTimeoutMillis + 200));
        return message.kind === 'request'
          ? { status: 200, json: serializeResultResponse(message.message.id, {}), isError: false }
          : undefined;
      },
    });
    server = await listenHttp(app, { port: 0, host: '127.0.0.1', ...LIMITS });
    url = server.url;
  });
  afterAll(() => server.close());

  /** The server still answers a valid call after the abuse. */
  async function stillServes(): Promise<void> {
    const res = await fetch(`${url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'mcp-protocol-version': '2025-11-25' },
      body: PING,
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
  }

  describe('Node-level errors are answered with JSON-RPC bodies', () => {
    it.each([
      ['a malformed request line', 'GARBAGE / NOT-HTTP\r\n\r\n', 400],
      ['10,000 headers', `${POST_HEAD}${'x-filler: 1\r\n'.repeat(10_000)}\r\n`, 431],
      ['a bad chunk size', `${POST_HEAD}Transfer-Encoding: chunked\r\n\r\nzz\r\n${PING}\r\n0\r\n\r\n`, 400],
      ['an HTTP/1.1 request without Host', 'POST  /mcp HTTP/1.1\r\n\r\n', 400],
      ['an unknown expectation', `${POST_HEAD}Expect: something-else\r\nContent-Length: 2\r\n\r\n{}`, 417],
    ])('%s', async (_case, request, status) => {
      const { received } = await rawExchange(url, request);
      expect(refusal(received)).toEqual({ status, body: { jsonrpc: '2.0', id: null, error: expect.objectContaining({ code: -32600 }) } });
      await stillServes();
    });

    it('refuses Expect: 100-continue with a body over the limit before the client sends it', async () => {
      const { received } = await rawExchange(url, `${POST_HEAD}Expect: 100-continue\r\nContent-Length: 1000000000\r\n\r\n`);
      expect(received).not.toContain('100 Continue');
      expect(refusal(received)).toEqual({
        status: 413,
        body: { jsonrpc: '2.0', id: null, error: expect.objectContaining({ code: -32600 }) },
      });
    });

    it('sends 100 Continue to Expect: 100-continue within the limit and serves the call', async () => {
      const { hostname, port } = new URL(url);
      const socket = connect(Number(port), hostname, () =>
        socket.write(`${POST_HEAD}Expect: 100-continue\r\nContent-Length: ${PING.length}\r\nConnection: close\r\n\r\n`),
      );
      let received = '';
      socket.setEncoding('utf8').on('data', (chunk: string) => {
        if (!received.includes('100 Continue')) socket.write(PING);
        received += chunk;
      });
      await new Promise((resolve) => socket.once('close', resolve));
      expect(received).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 200 OK/);
    });
  });

  describe('slow clients are cut', () => {
    it('cuts a slowloris connection (headers never finished) after headersTimeout, with a JSON-RPC 408', async () => {
      const { received, elapsedMillis } = await rawExchange(url, POST_HEAD, 'x');
      expect(elapsedMillis).toBeGreaterThanOrEqual(LIMITS.headersTimeoutMillis);
      expect(refusal(received)).toEqual({
        status: 408,
        body: { jsonrpc: '2.0', id: null, error: expect.objectContaining({ code: -32600 }) },
      });
      await stillServes();
    });

    it('cuts a dribbled body after requestTimeout, with a JSON-RPC 408', async () => {
      const { received, elapsedMillis } = await rawExchange(url, `${POST_HEAD}Content-Length: ${MAX_BODY_BYTES}\r\n\r\n`, ' ');
      expect(elapsedMillis).toBeGreaterThanOrEqual(LIMITS.requestTimeoutMillis);
      expect(refusal(received)).toEqual({
        status: 408,
        body: { jsonrpc: '2.0', id: null, error: expect.objectContaining({ code: -32600 }) },
      });
      await stillServes();
    });

    it('closes an idle keep-alive connection after keepAliveTimeout', async () => {
      const { received } = await rawExchange(url, `${POST_HEAD}Content-Length: ${PING.length}\r\n\r\n${PING}`);
      expect(received).toMatch(/^HTTP\/1\.1 200 OK/); // answered, then held idle until the server closed it
    });
  });

  it('closes connections beyond maxConnections as they arrive, and recovers when they go', async () => {
    // A server of its own, whose timeouts cannot free a slot while the test holds them all.
    const capped = await listenHttp((_req, res) => res.end('ok'), { port: 0, host: '127.0.0.1', maxConnections: 4 });
    const { hostname, port } = new URL(capped.url);
    const connectionCount = () =>
      new Promise<number>((resolve, reject) => capped.server.getConnections((error, count) => (error ? reject(error) : resolve(count))));
    const held = Array.from({ length: 4 }, () => connect(Number(port), hostname).on('error', () => undefined));
    while ((await connectionCount()) < 4) await new Promise((resolve) => setTimeout(resolve, 5));

    const refused = await rawExchange(capped.url, 'GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    expect(refused.received).toBe(''); // closed unread
    for (const socket of held) socket.destroy();
    while ((await connectionCount()) > 0) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(await (await fetch(capped.url)).text()).toBe('ok');
    await capped.close();
  });
});
