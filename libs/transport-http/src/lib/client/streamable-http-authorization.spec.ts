import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { JSONRPCMessage } from '@toolmesh/protocol';
import { eventually } from '@toolmesh/test-peers/process-table';
import { Agent } from 'undici';

import type { AuthorizationChallenge, HttpAuthorization } from './http-authorization';
import { HttpClientErrorCode } from './http-client-errors';
import { StreamableHttpClientTransport } from './streamable-http-client-transport';

/**
 * The transport's authorization hook against a real loopback server: what it sends, when it hands a
 * refusal over, how often it retries. The hook here is a plain recorder; the OAuth behind the real one
 * is the agent's (apps/agent-cli/src/mcp/oauth).
 */
type Answer = (req: IncomingMessage, res: ServerResponse) => void;

let server: Server;
let url: URL;
let answer: Answer;
const seen: Array<{ method: string; authorization: string | undefined }> = [];
let dispatcher: Agent;

beforeAll(async () => {
  dispatcher = new Agent({ keepAliveTimeout: 1000 });
  server = createServer((req, res) => {
    seen.push({ method: req.method ?? '', authorization: req.headers.authorization });
    req.resume();
    req.on('end', () => answer(req, res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`);
});
afterAll(async () => {
  await dispatcher.close();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  seen.length = 0;
});

const PING: JSONRPCMessage = { jsonrpc: '2.0', id: 1, method: 'ping' };
const CHALLENGE = 'Bearer resource_metadata="http://127.0.0.1/.well-known/oauth-protected-resource/mcp", scope="read"';
const STEP_UP = 'Bearer error="insufficient_scope", scope="write"';

/** A hook that starts with `token` and, on each challenge, moves to `token-<n>` (or rejects with `failure`). */
function recordingHook(options: { readonly token?: string; readonly failure?: Error } = {}) {
  const challenges: AuthorizationChallenge[] = [];
  let token = options.token;
  const hook: HttpAuthorization = {
    authorization: async () => (token === undefined ? undefined : `Bearer ${token}`),
    challenged: async (challenge) => {
      challenges.push(challenge);
      if (options.failure) throw options.failure;
      token = `token-${challenges.length}`;
    },
  };
  return { hook, challenges };
}

function reply(res: ServerResponse, status: number, headers: Record<string, string> = {}) {
  res
    .writeHead(status, { 'content-type': 'application/json', ...headers })
    .end(status === 200 ? JSON.stringify({ jsonrpc: '2.0', id: 1, result: {} }) : '{}');
}

async function open(hook: HttpAuthorization, listen = false) {
  const transport = new StreamableHttpClientTransport(url, { dispatcher, authorization: hook, listen });
  const messages: JSONRPCMessage[] = [];
  transport.onmessage = (message) => messages.push(message);
  await transport.start();
  return { transport, messages };
}

describe('StreamableHttpClientTransport with an authorization hook', () => {
  it("sends the hook's header, hands a 401 over with its challenge as sent, and retries once with the new credentials", async () => {
    answer = (req, res) =>
      req.headers.authorization === 'Bearer token-1' ? reply(res, 200) : reply(res, 401, { 'www-authenticate': CHALLENGE });
    const { hook, challenges } = recordingHook({ token: 'stale' });
    const { transport, messages } = await open(hook);

    await transport.send(PING);

    expect(challenges).toEqual([{ status: 401, wwwAuthenticate: CHALLENGE }]);
    expect(seen).toEqual([
      { method: 'POST', authorization: 'Bearer stale' },
      { method: 'POST', authorization: 'Bearer token-1' },
    ]);
    expect(messages).toEqual([{ jsonrpc: '2.0', id: 1, result: {} }]);
    await transport.close();
  });

  it('fails a request refused again after the retry, without a third try or the "check the headers" hint', async () => {
    answer = (_req, res) => reply(res, 401, { 'www-authenticate': CHALLENGE });
    const { hook, challenges } = recordingHook();
    const { transport } = await open(hook);

    const failure = (await transport.send(PING).catch((error: unknown) => error)) as { code: string; message: string; status: number };

    expect(failure).toMatchObject({ code: HttpClientErrorCode.HttpStatus, status: 401 });
    expect(failure.message).not.toContain('headers');
    expect(challenges).toHaveLength(1);
    expect(seen).toHaveLength(2);
    await transport.close();
  });

  it('steps up on 403 insufficient_scope at most twice per request', async () => {
    answer = (_req, res) => reply(res, 403, { 'www-authenticate': STEP_UP });
    const { hook, challenges } = recordingHook({ token: 'narrow' });
    const { transport } = await open(hook);

    await expect(transport.send(PING)).rejects.toMatchObject({ status: 403 });

    expect(challenges).toEqual([
      { status: 403, wwwAuthenticate: STEP_UP },
      { status: 403, wwwAuthenticate: STEP_UP },
    ]);
    expect(seen.map((r) => r.authorization)).toEqual(['Bearer narrow', 'Bearer token-1', 'Bearer token-2']);
    await transport.close();
  });

  it('does not hand over a 403 that asks for no scope', async () => {
    answer = (_req, res) => reply(res, 403, { 'www-authenticate': 'Bearer error="invalid_token"' });
    const { hook, challenges } = recordingHook({ token: 't' });
    const { transport } = await open(hook);

    await expect(transport.send(PING)).rejects.toMatchObject({ status: 403 });
    expect(challenges).toEqual([]);
    expect(seen).toHaveLength(1);
    await transport.close();
  });

  it("fails the request with the hook's own error, marked for the SDK's probe as an authorization failure", async () => {
    answer = (_req, res) => reply(res, 401, { 'www-authenticate': CHALLENGE });
    const refusal = new Error('the sign-in was refused');
    const { hook } = recordingHook({ failure: refusal });
    const { transport } = await open(hook);

    const failure = await transport.send(PING).catch((error: unknown) => error);

    expect(failure).toBe(refusal);
    expect((failure as Record<symbol, unknown>)[Symbol.for('mcp.authSeamEscape')]).toBe(true);
    expect(seen).toHaveLength(1);
    await transport.close();
  });

  it('puts the header on the GET stream and on DELETE, and never signs in for the DELETE at close', async () => {
    answer = (req, res) => {
      if (req.method === 'POST') return reply(res, 200, { 'mcp-session-id': 'session-1' });
      if (req.method === 'GET') return res.writeHead(405).end();
      return reply(res, 401, { 'www-authenticate': CHALLENGE });
    };
    const { hook, challenges } = recordingHook({ token: 't' });
    const { transport } = await open(hook, true);

    await transport.send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'test', version: '0' } },
    });
    await transport.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    expect(await eventually(() => seen.some((r) => r.method === 'GET'))).toBe(true); // opened in the background
    await transport.close();

    expect(seen.map((r) => r.method)).toEqual(['POST', 'POST', 'GET', 'DELETE']);
    for (const request of seen) expect(request.authorization).toBe('Bearer t');
    expect(challenges).toEqual([]);
  });
});
