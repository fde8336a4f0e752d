import { PassThrough } from 'node:stream';

import { serializeResultResponse } from '@toolmesh/protocol';

import { createLogger } from '../logging/logger';
import type { Authentication, Authenticator } from './authenticator';
import type { McpDispatcher } from './dispatch-outcome';
import { listenHttp, type RunningHttpServer } from './http-server';
import { createMcpHttpApp } from './mcp-http-app';
import { LOOPBACK_ORIGIN_POLICY } from './origin-guard';
import type { RequestContext } from './request-context';

const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' };
const CHALLENGE = 'Bearer resource_metadata="http://127.0.0.1/.well-known/oauth-protected-resource/mcp"';
const METADATA = { resource: 'http://127.0.0.1/mcp', authorization_servers: ['http://127.0.0.1:1/'] };

/**
 * The authenticator hook of the HTTP front: a request the application's authenticator refuses never
 * reaches the dispatcher and is answered with the refusal's status and challenge; one it accepts carries
 * the verified caller in its context, whether the answer came at once or later.
 */
describe('MCP HTTP front with an authenticator', () => {
  let server: RunningHttpServer;
  let url: string;
  let logs = '';
  const seen: RequestContext[] = [];
  const dispatch: McpDispatcher = async (message, context) => {
    seen.push(context);
    return message.kind === 'request' ? { status: 200, json: serializeResultResponse(message.message.id, {}), isError: false } : undefined;
  };
  const caller = (subject: string): Authentication => ({ caller: { subject, scopes: new Set(['read']), claims: { sub: subject } } });
  const authenticate: Authenticator = (req) => {
    const credential = req.headers.authorization;
    if (credential === 'Bearer sync-good') return caller('sync-subject');
    if (credential === 'Bearer async-good') return Promise.resolve(caller('async-subject'));
    return {
      refusal: {
        status: 401,
        challenge: CHALLENGE,
        reason: credential ? 'invalid_token' : 'no_token',
        message: 'a bearer token is required',
      },
    };
  };

  beforeAll(async () => {
    const stream = new PassThrough();
    stream.on('data', (chunk) => (logs += chunk));
    const app = createMcpHttpApp({
      endpointPath: '/mcp',
      maxBodyBytes: 1024,
      requestDeadlineMillis: 5_000,
      originPolicy: { ...LOOPBACK_ORIGIN_POLICY, allowedOrigins: ['http://app.example'] },
      logger: createLogger({ stream }),
      dispatch,
      dispatchGet: (context) => (seen.push(context), { status: 200, json: '{}', isError: false }),
      authenticate,
      documents: new Map([['/.well-known/oauth-protected-resource/mcp', METADATA]]),
      pages: new Map([['/consent', async (_req, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end('<p>consent</p>')]]),
    });
    server = await listenHttp(app, { port: 0, host: '127.0.0.1' });
    url = `${server.url}/mcp`;
  });
  afterAll(() => server.close());
  beforeEach(() => (seen.length = 0));

  const post = (headers: Record<string, string> = {}) =>
    fetch(url, { method: 'POST', headers: { ...HEADERS, ...headers }, body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' });

  it('refuses a request without credentials with 401, the challenge and a JSON-RPC error, before dispatch', async () => {
    const res = await post();
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe(CHALLENGE);
    expect(((await res.json()) as { error: { code: number; message: string } }).error).toEqual({
      code: -32600,
      message: 'Invalid Request: unauthorized: a bearer token is required',
    });
    expect(seen).toHaveLength(0);
  });

  it('gives the dispatcher the caller verified at once or later', async () => {
    expect((await post({ authorization: 'Bearer sync-good' })).status).toBe(200);
    expect((await post({ authorization: 'Bearer async-good' })).status).toBe(200);
    expect(seen.map((context) => context.caller?.subject)).toEqual(['sync-subject', 'async-subject']);
  });

  it('checks the GET stream as it checks POST', async () => {
    expect((await fetch(url, { headers: { accept: 'text/event-stream' } })).status).toBe(401);
    expect((await fetch(url, { headers: { accept: 'text/event-stream', authorization: 'Bearer sync-good' } })).status).toBe(200);
    expect(seen.map((context) => context.caller?.subject)).toEqual(['sync-subject']);
  });

  it('leaves a CORS preflight unauthenticated and lets a browser read the challenge', async () => {
    const preflight = await fetch(url, {
      method: 'OPTIONS',
      headers: { origin: 'http://app.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization' },
    });
    expect(preflight.status).toBe(204);
    const refused = await post({ origin: 'http://app.example' });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('access-control-expose-headers')).toContain('www-authenticate');
  });

  it('serves the public documents without credentials', async () => {
    const res = await fetch(`${server.url}/.well-known/oauth-protected-resource/mcp`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(METADATA);
  });

  it('serves its browser pages on GET without credentials, at their exact paths only', async () => {
    const page = await fetch(`${server.url}/consent?request=x`);
    expect({ status: page.status, text: await page.text() }).toEqual({ status: 200, text: '<p>consent</p>' });
    expect((await fetch(`${server.url}/consent/other`)).status).toBe(404);
  });

  it('logs the refusal reason, never the credential', async () => {
    await post({ authorization: 'Bearer not-a-good-one' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(logs).toContain('invalid_token');
    expect(logs).not.toContain('not-a-good-one');
  });
});
