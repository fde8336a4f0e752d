import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * An MCP server behind OAuth, with its own authorization server, on 127.0.0.1 (port 0): protected
 * resource metadata at the path-based well-known URL, RFC 8414 metadata, dynamic registration (a
 * confidential client: it gets a secret), the authorization endpoint (PKCE S256 required; it redirects
 * at once, as a user who agrees), and a token endpoint that issues an access token and a refresh
 * token and honours the refresh grant, each carrying the scope that was authorized. `/mcp` answers
 * initialize, tools/list and tools/call (one tool, `whoami`) to a current access token and 401 to
 * anything else; with `callScope`, a call whose token lacks that scope gets 403 insufficient_scope. Everything issued is random and
 * recorded, so a test can look for it in the agent's output.
 */
export interface OAuthProtectedServer {
  /** The MCP endpoint, `http://127.0.0.1:<port>/mcp`. */
  readonly url: string;
  /** Every access token, refresh token and client secret handed out. */
  readonly issued: string[];
  /** The grant types of the token requests, in order. */
  readonly grants: string[];
  /** The access token of each MCP request that carried a valid one, in order. */
  readonly mcpTokens: string[];
  /** The `scope` of each authorization request, in order. */
  readonly authorizationScopes: string[];
  /** Makes every access token issued so far invalid (as a server that restarted or revoked them); refresh tokens stay good. */
  revokeAccessTokens(): void;
  close(): Promise<void>;
}

interface PendingCode {
  readonly challenge: string;
  readonly clientId: string;
  readonly scope: string;
}

export interface OAuthProtectedServerOptions {
  /** A scope tools/call needs beyond the others: without it the call gets 403 insufficient_scope naming it. */
  readonly callScope?: string;
  /** The one step whose address the metadata gives as plain http on another machine (PLAIN_HTTP_ELSEWHERE). */
  readonly plainHttpElsewhere?: 'authorization-server' | 'registration' | 'authorization-page';
  /** Token responses carry this many bytes of padding besides the tokens. */
  readonly tokenPaddingBytes?: number;
}

/** Plain http to an address of TEST-NET-1 (RFC 5737): not this machine, and never routed. */
export const PLAIN_HTTP_ELSEWHERE = 'http://192.0.2.1:9';

export async function startOAuthProtectedServer(options: OAuthProtectedServerOptions = {}): Promise<OAuthProtectedServer> {
  const issued: string[] = [];
  const grants: string[] = [];
  const mcpTokens: string[] = [];
  const codes = new Map<string, PendingCode>();
  const authorizationScopes: string[] = [];
  /** Each current access token and refresh token, with the scope it grants. */
  const accessTokens = new Map<string, string>();
  const refreshTokens = new Map<string, string>();
  const secrets = new Map<string, string>();
  let base = '';
  const secret = (prefix: string) => `${prefix}-${randomBytes(12).toString('hex')}`;

  const issueTokens = (scope: string) => {
    const access = secret('at');
    const refresh = secret('rt');
    accessTokens.set(access, scope);
    refreshTokens.set(refresh, scope);
    issued.push(access, refresh);
    const padding = options.tokenPaddingBytes ? { padding: 'x'.repeat(options.tokenPaddingBytes) } : {};
    return { access_token: access, token_type: 'Bearer', expires_in: 3600, refresh_token: refresh, scope, ...padding };
  };
  const origin = (step: OAuthProtectedServerOptions['plainHttpElsewhere']) =>
    options.plainHttpElsewhere === step ? PLAIN_HTTP_ELSEWHERE : base;

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', base);
    const body = await readBody(req);
    const json = (status: number, value: unknown, headers: Record<string, string> = {}) =>
      res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(value));

    if (req.method === 'GET' && url.pathname === '/.well-known/oauth-protected-resource/mcp') {
      return json(200, { resource: `${base}/mcp`, authorization_servers: [origin('authorization-server')], scopes_supported: ['mcp'] });
    }
    if (req.method === 'GET' && url.pathname === '/.well-known/oauth-authorization-server') {
      return json(200, {
        issuer: base,
        authorization_endpoint: `${origin('authorization-page')}/authorize`,
        token_endpoint: `${base}/token`,
        registration_endpoint: `${origin('registration')}/register`,
        response_types_supported: ['code'],
        grant_types_supported: ['authorization_code', 'refresh_token'],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['client_secret_post', 'none'],
        authorization_response_iss_parameter_supported: true,
      });
    }
    if (req.method === 'POST' && url.pathname === '/register') {
      const metadata = JSON.parse(body) as Record<string, unknown>;
      const clientId = secret('client');
      const clientSecret = secret('cs');
      secrets.set(clientId, clientSecret);
      issued.push(clientSecret);
      return json(201, { ...metadata, client_id: clientId, client_secret: clientSecret, token_endpoint_auth_method: 'client_secret_post' });
    }
    if (req.method === 'GET' && url.pathname === '/authorize') {
      const q = url.searchParams;
      if (q.get('code_challenge_method') !== 'S256' || !q.get('code_challenge') || !q.get('redirect_uri'))
        return json(400, { error: 'invalid_request' });
      const code = secret('code');
      authorizationScopes.push(q.get('scope') ?? '');
      codes.set(code, { challenge: q.get('code_challenge') as string, clientId: q.get('client_id') ?? '', scope: q.get('scope') ?? '' });
      const back = new URL(q.get('redirect_uri') as string);
      back.searchParams.set('code', code);
      back.searchParams.set('state', q.get('state') ?? '');
      back.searchParams.set('iss', base);
      return res.writeHead(302, { location: back.href }).end();
    }
    if (req.method === 'POST' && url.pathname === '/token') {
      const form = new URLSearchParams(body);
      const grant = form.get('grant_type') ?? '';
      grants.push(grant);
      if (secrets.get(form.get('client_id') ?? '') !== form.get('client_secret')) return json(401, { error: 'invalid_client' });
      if (grant === 'authorization_code') {
        const pending = codes.get(form.get('code') ?? '');
        codes.delete(form.get('code') ?? '');
        const verifier = form.get('code_verifier') ?? '';
        if (!pending || createHash('sha256').update(verifier).digest('base64url') !== pending.challenge)
          return json(400, { error: 'invalid_grant' });
        return json(200, issueTokens(pending.scope));
      }
      const refreshed = refreshTokens.get(form.get('refresh_token') ?? '');
      if (grant === 'refresh_token' && refreshed !== undefined) {
        refreshTokens.delete(form.get('refresh_token') ?? '');
        return json(200, issueTokens(refreshed));
      }
      return json(400, { error: 'invalid_grant' });
    }
    if (url.pathname === '/mcp') {
      const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
      if (!token || !accessTokens.has(token)) {
        return json(
          401,
          { error: 'invalid_token' },
          { 'www-authenticate': `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"` },
        );
      }
      if (req.method !== 'POST') return res.writeHead(405).end();
      const message = JSON.parse(body) as { id?: number | string; method: string; params?: { protocolVersion?: string } };
      const granted = (accessTokens.get(token) ?? '').split(' ');
      if (options.callScope && message.method === 'tools/call' && !granted.includes(options.callScope)) {
        const challenge = `Bearer error="insufficient_scope", scope="${options.callScope}", resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`;
        return json(403, { error: 'insufficient_scope' }, { 'www-authenticate': challenge });
      }
      mcpTokens.push(token);
      return answerMcp(message, json, res);
    }
    return json(404, { error: 'not_found' });
  };

  const server = createServer((req, res) => {
    handle(req, res).catch(() => res.writeHead(500).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${base}/mcp`,
    issued,
    grants,
    mcpTokens,
    authorizationScopes,
    revokeAccessTokens: () => accessTokens.clear(),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function answerMcp(
  message: { id?: number | string; method: string; params?: { protocolVersion?: string } },
  json: (status: number, value: unknown) => void,
  res: ServerResponse,
): void {
  if (message.id === undefined) return void res.writeHead(202).end();
  const reply = (result: unknown) => json(200, { jsonrpc: '2.0', id: message.id, result });
  switch (message.method) {
    case 'initialize':
      return reply({
        protocolVersion: message.params?.protocolVersion ?? '2025-11-25',
        capabilities: { tools: {} },
        serverInfo: { name: 'oauth-protected', version: '1.0.0' },
      });
    case 'tools/list':
      return reply({
        tools: [
          { name: 'whoami', description: 'Says who is signed in.', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
        ],
      });
    case 'tools/call':
      return reply({ content: [{ type: 'text', text: 'signed in' }] });
    default:
      return json(200, { jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Method not found' } });
  }
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    req.on('end', () => resolve(text));
    req.on('error', reject);
  });
}
