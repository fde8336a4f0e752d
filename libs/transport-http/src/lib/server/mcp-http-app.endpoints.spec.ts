import { PassThrough } from 'node:stream';

import { serializeResultResponse } from '@toolmesh/protocol';

import { createLogger } from '../logging/logger';
import type { Authenticator } from './authenticator';
import type { McpDispatcher } from './dispatch-outcome';
import { listenHttp, type RunningHttpServer } from './http-server';
import { createMcpHttpApp } from './mcp-http-app';
import { LOOPBACK_ORIGIN_POLICY } from './origin-guard';
import type { RequestContext } from './request-context';

const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' };
const PING = '{"jsonrpc":"2.0","id":1,"method":"ping"}';

/**
 * More endpoints on one front (the gateway's curated endpoints): each path's POSTs and GETs reach its own
 * application, named in the request's context, and its own credentials check; the default endpoint's
 * requests are as they were, and a path that is neither is 404.
 */
describe('MCP HTTP front with more endpoints', () => {
  let server: RunningHttpServer;
  const seen: Array<{ by: string; context: RequestContext }> = [];
  const application =
    (by: string): McpDispatcher =>
    async (message, context) => {
      seen.push({ by, context });
      return message.kind === 'request'
        ? { status: 200, json: serializeResultResponse(message.message.id, { by }), isError: false }
        : undefined;
    };
  const refuseAll: Authenticator = () => ({
    refusal: { status: 403, challenge: 'Bearer error="insufficient_scope"', reason: 'x', message: 'no' },
  });

  beforeAll(async () => {
    const app = createMcpHttpApp({
      endpointPath: '/mcp',
      maxBodyBytes: 1024,
      requestDeadlineMillis: 5_000,
      originPolicy: LOOPBACK_ORIGIN_POLICY,
      logger: createLogger({ stream: new PassThrough() }),
      dispatch: application('default'),
      endpoints: [
        {
          name: 'support',
          path: '/mcp/support',
          dispatch: application('support'),
          dispatchGet: (context) => (seen.push({ by: 'support GET', context }), { status: 200, json: '{}', isError: false }),
        },
        { name: 'closed', path: '/closed', dispatch: application('closed'), authenticate: refuseAll },
      ],
    });
    server = await listenHttp(app, { port: 0, host: '127.0.0.1' });
  });
  afterAll(() => server.close());
  beforeEach(() => {
    seen.length = 0;
  });

  const post = (path: string) => fetch(`${server.url}${path}`, { method: 'POST', headers: HEADERS, body: PING });

  it("sends each path's POSTs to its own application, the context naming the endpoint", async () => {
    expect(await (await post('/mcp/support')).json()).toMatchObject({ result: { by: 'support' } });
    expect(await (await post('/mcp')).json()).toMatchObject({ result: { by: 'default' } });
    expect(seen.map(({ by, context }) => [by, context.endpoint])).toEqual([
      ['support', 'support'],
      ['default', undefined],
    ]);
  });

  it("serves an endpoint's GET with its own handler, and 405 where it has none", async () => {
    expect((await fetch(`${server.url}/mcp/support`, { headers: { accept: 'text/event-stream' } })).status).toBe(200);
    expect(seen.map(({ by, context }) => [by, context.endpoint])).toEqual([['support GET', 'support']]);
    expect((await fetch(`${server.url}/mcp`)).status).toBe(405);
  });

  it("refuses with an endpoint's own credentials check, before its application", async () => {
    const res = await post('/closed');
    expect([res.status, res.headers.get('www-authenticate')]).toEqual([403, 'Bearer error="insufficient_scope"']);
    expect(seen).toEqual([]);
  });

  it('answers 404 on a path no endpoint has, naming the default one', async () => {
    const res = await post('/mcp/other');
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { message: string } }).error.message).toContain('use /mcp');
  });
});
