import { PassThrough } from 'node:stream';

import { serializeResultResponse } from '@toolmesh/protocol';

import { createLogger, type Logger } from '../logging/logger';
import { listenHttp, type RunningHttpServer } from './http-server';
import { createMcpHttpApp } from './mcp-http-app';

const VERSION = '2025-11-25';
const ALLOWED = 'https://agents.example.com';

describe('MCP HTTP front CORS', () => {
  let server: RunningHttpServer;
  let url: string;
  let logger: Logger;
  let logs = '';

  beforeAll(async () => {
    const stream = new PassThrough();
    stream.on('data', (chunk) => (logs += chunk));
    logger = createLogger({ stream });
    const app = createMcpHttpApp({
      endpointPath: '/mcp',
      maxBodyBytes: 1024,
      requestDeadlineMillis: 5_000,
      originPolicy: { allowedHosts: ['127.0.0.1'], allowedOrigins: [ALLOWED] },
      logger,
      dispatch: async (message) =>
        message.kind === 'request' ? { status: 200, json: serializeResultResponse(message.message.id, {}), isError: false } : undefined,
    });
    server = await listenHttp(app, { port: 0, host: '127.0.0.1' });
    url = `${server.url}/mcp`;
  });
  afterAll(() => server.close());

  const preflight = (origin: string, requestHeaders = 'content-type, mcp-protocol-version') =>
    fetch(url, {
      method: 'OPTIONS',
      headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': requestHeaders },
    });

  it('answers a preflight from an allowed origin with what an MCP client sends', async () => {
    const res = await preflight(ALLOWED, 'content-type, Mcp-Session-Id, mcp-method, mcp-param-region, mcp-param-Customer-Id');
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe(ALLOWED);
    expect(res.headers.get('vary')).toBe('Origin');
    expect(res.headers.get('access-control-allow-methods')).toBe('GET, POST, DELETE, OPTIONS');
    expect(res.headers.get('access-control-max-age')).toMatch(/^\d+$/);
    const allowed = res.headers.get('access-control-allow-headers')?.split(', ');
    for (const header of [
      'content-type',
      'accept',
      'authorization',
      'mcp-protocol-version',
      'mcp-session-id',
      'last-event-id',
      'mcp-method',
      'mcp-name',
      'mcp-param-region',
      'mcp-param-customer-id',
    ]) {
      expect(allowed).toContain(header);
    }
    expect(res.headers.get('guid')).toBeTruthy();
    expect(res.headers.get('x-request-id')).toBeTruthy();
  });

  it('refuses a preflight from another origin with JSON-RPC and no Access-Control headers', async () => {
    const res = await preflight('https://evil.example.net');
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
    expect([...res.headers.keys()].filter((name) => name.startsWith('access-control-'))).toEqual([]);
  });

  it('lets an allowed origin read the answer of a POST and its MCP headers', async () => {
    const res = await fetch(url, {
      method: 'POST',
      headers: { origin: ALLOWED, 'content-type': 'application/json', 'mcp-protocol-version': VERSION },
      body: '{"jsonrpc":"2.0","id":1,"method":"ping"}',
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe(ALLOWED);
    expect(res.headers.get('access-control-expose-headers')).toBe(
      'mcp-session-id, mcp-protocol-version, x-request-id, guid, www-authenticate, retry-after',
    );
  });

  it.each(['GET', 'DELETE', 'OPTIONS'])('gives %s correlation ids and boundary logs', async (method) => {
    logs = '';
    const res = await fetch(url, { method, headers: { 'x-request-id': `req-${method}` } });
    expect(res.status).toBe(405);
    expect(res.headers.get('x-request-id')).toBe(`req-${method}`);
    const guid = res.headers.get('guid');
    expect(guid).toBeTruthy();
    await res.arrayBuffer();
    // Wait for this request's line: an earlier test's batched lines may still arrive after the reset.
    while (!logs.includes(`event=mcp_http_response_completed httpMethod=${method}`)) {
      logger.flush();
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(logs).toContain(`event=mcp_http_request_received httpMethod=${method} guid=${guid} requestId=req-${method}`);
    expect(logs).toContain(`event=mcp_http_response_completed httpMethod=${method} status=405`);
    expect(logs).toMatch(new RegExp(`event=mcp_http_response_completed .*guid=${guid} requestId=req-${method}`));
  });
});
