import { createHmac } from 'node:crypto';

import { type SampleToolService, startSampleToolService } from '@toolmesh/test-peers/sample-tool-service';

import { startTestGateway, type TestGateway } from '../test-support/test-gateway';
import { authTrusting, startTokenIssuer, type TokenIssuer } from '../test-support/token-issuer';

/**
 * The gateway as an OAuth 2.1 protected resource (SPEC G27), end to end over loopback: a real JWKS
 * endpoint, tokens signed with jose, the sample tool service behind. Each refusal the MCP authorization
 * specification and RFC 6750 / 8707 / 9728 call for is a test of its own.
 */
const AUDIENCE = 'https://gateway.test.invalid/mcp';
const METADATA_URL = 'https://gateway.test.invalid/.well-known/oauth-protected-resource/mcp';
/** The least time between two fetches of the keys; generous, so a loaded machine still sends the second unknown `kid` within it. */
const COOLDOWN_MILLIS = 3_000;
const MODERN_LIST = {
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/list',
  params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } },
};
const MODERN_HEADERS = { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' };

let issuer: TokenIssuer;
let tools: SampleToolService;
let gw: TestGateway;
/** Every token a test made, to prove none reaches the log. */
const tokens: string[] = [];

beforeAll(async () => {
  issuer = await startTokenIssuer(AUDIENCE);
  tools = await startSampleToolService();
  gw = await startTestGateway(tools.url, (config) => {
    config.server.metricsEnabled = true;
    config.auth = {
      ...authTrusting(issuer, AUDIENCE),
      algorithms: ['RS256', 'ES256'],
      jwksRefetchCooldownMillis: COOLDOWN_MILLIS,
      scopesSupported: ['tools', 'customers:read'],
      toolPolicies: [{ tools: 'customer_*', scopes: ['customers:read'] }],
      identityHeaders: { 'x-user-subject': 'sub', 'x-client-id': 'client_id' },
      maxCachedTokens: 100,
    };
  });
});
afterAll(async () => {
  await gw?.stop();
  await tools?.stop();
  await issuer?.close();
});

async function token(claims: Record<string, unknown> = {}, options?: Parameters<TokenIssuer['sign']>[1]): Promise<string> {
  const signed = await issuer.sign({ client_id: 'agent-cli', scope: 'tools', ...claims }, options);
  tokens.push(signed);
  return signed;
}

const bearer = (value: string) => ({ authorization: `Bearer ${value}` });
const listTools = (headers: Record<string, string>) => gw.post({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, headers);

async function expectInvalidToken(value: string, reason: string): Promise<void> {
  tokens.push(value);
  const res = await listTools(bearer(value));
  expect(res.status).toBe(401);
  expect(res.headers.get('www-authenticate')).toBe(
    `Bearer error="invalid_token", resource_metadata="${METADATA_URL}", scope="tools customers:read"`,
  );
  expect(((await res.json()) as { error: { message: string } }).error.message).toContain(`(${reason})`);
}

/** A JWS put together by hand: what jose would never sign, as an attacker would. */
function forged(header: object, payload: object, sign: (input: string) => string): string {
  const encode = (part: object) => Buffer.from(JSON.stringify(part)).toString('base64url');
  const input = `${encode(header)}.${encode(payload)}`;
  return `${input}.${sign(input)}`;
}

const validClaims = () => {
  const now = Math.floor(Date.now() / 1000);
  return { iss: issuer.issuer, aud: AUDIENCE, sub: 'user-1', scope: 'tools customers:read', iat: now, exp: now + 3600 };
};

describe('protected-resource metadata (RFC 9728)', () => {
  it('is served without a token at the well-known path for the endpoint', async () => {
    const res = await fetch(new URL('/.well-known/oauth-protected-resource/mcp', gw.url));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      resource: AUDIENCE,
      authorization_servers: [issuer.issuer],
      bearer_methods_supported: ['header'],
      scopes_supported: ['tools', 'customers:read'],
    });
  });
});

describe('refusals', () => {
  it('no token: 401 with where to learn how to get one and what to ask for', async () => {
    const res = await listTools({});
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${METADATA_URL}", scope="tools customers:read"`);
    expect(((await res.json()) as { error: { code: number } }).error.code).toBe(-32600);
  });

  it('no token at 2026-07-28 either', async () => {
    const res = await gw.post(MODERN_LIST, MODERN_HEADERS);
    expect(res.status).toBe(401);
  });

  it('a scheme other than Bearer', async () => {
    const res = await listTools({ authorization: 'Basic dXNlcjpwYXNz' });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toContain('error="invalid_token"');
  });

  it('expired, beyond the clock skew', async () => {
    const now = Math.floor(Date.now() / 1000);
    await expectInvalidToken(await token({ iat: now - 7200, exp: now - 120 }), 'expired');
  });

  it('not yet valid, beyond the clock skew', async () => {
    await expectInvalidToken(await token({ nbf: Math.floor(Date.now() / 1000) + 600 }), 'not_yet_valid');
  });

  it('issued in the future, beyond the clock skew', async () => {
    const now = Math.floor(Date.now() / 1000);
    await expectInvalidToken(await token({ iat: now + 600, exp: now + 3600 }), 'issued_in_future');
  });

  it('issued longer ago than auth.maxTokenAgeSeconds (a day), though its exp is a year ahead', async () => {
    const now = Math.floor(Date.now() / 1000);
    await expectInvalidToken(await token({ iat: now - 86_400 - 120, exp: now + 365 * 86_400 }), 'too_old');
  });

  it('without iat (RFC 9068 requires it)', async () => {
    await expectInvalidToken(await token({ iat: undefined }), 'invalid_claims');
  });

  it("a JWT of another type signed with the issuer's key (a logout token, a DPoP proof, an ID token typed as one)", async () => {
    for (const typ of ['logout+jwt', 'dpop+jwt', 'application/secevent+jwt', 'id_token+jwt'])
      await expectInvalidToken(await token({}, { typ }), 'wrong_type');
  });

  it('typ at+jwt, application/at+jwt (RFC 9068), JWT or none are access tokens', async () => {
    for (const typ of ['at+jwt', 'application/AT+JWT', 'JWT', null])
      expect((await listTools(bearer(await token({}, { typ })))).status).toBe(200);
  });

  it('for another resource (RFC 8707 audience), or none', async () => {
    await expectInvalidToken(await token({ aud: 'https://other.test.invalid/mcp' }), 'wrong_audience');
    await expectInvalidToken(
      await token({ aud: ['https://other.test.invalid/mcp', 'https://gateway.test.invalid/MCP'] }),
      'wrong_audience',
    );
    await expectInvalidToken(await token({ aud: undefined }), 'wrong_audience');
  });

  it('naming the gateway with another case of scheme and host, or its default port, is an access token (RFC 3986 §6.2.2)', async () => {
    for (const aud of [
      'HTTPS://Gateway.TEST.invalid/mcp',
      'https://gateway.test.invalid:443/mcp',
      ['https://other.test.invalid/mcp', AUDIENCE],
    ])
      expect({ aud, status: (await listTools(bearer(await token({ aud })))).status }).toEqual({ aud, status: 200 });
  });

  it('from an issuer not on the allowlist, even signed with a known key', async () => {
    await expectInvalidToken(await token({ iss: 'https://evil.test.invalid/' }), 'unknown_issuer');
  });

  it('alg none', async () => {
    await expectInvalidToken(
      forged({ alg: 'none', typ: 'JWT' }, validClaims(), () => ''),
      'algorithm_refused',
    );
  });

  it('HS256 signed with the public key as the HMAC secret', async () => {
    const secret = JSON.stringify(issuer.publicJwk);
    const value = forged({ alg: 'HS256', kid: 'test-key-1' }, validClaims(), (input) =>
      createHmac('sha256', secret).update(input).digest('base64url'),
    );
    await expectInvalidToken(value, 'algorithm_refused');
  });

  it('a good signature over altered claims', async () => {
    const [header, , signature] = (await token()).split('.');
    const altered = Buffer.from(JSON.stringify({ ...validClaims(), sub: 'admin' })).toString('base64url');
    await expectInvalidToken(`${header}.${altered}.${signature}`, 'bad_signature');
  });

  it('unknown kid: the keys are fetched again once, then the token is refused; another at once fetches nothing', async () => {
    await listTools(bearer(await token())); // the key set is in the cache
    await new Promise((resolve) => setTimeout(resolve, COOLDOWN_MILLIS + 100)); // past the cooldown of that fetch
    const before = issuer.jwksFetches();
    await expectInvalidToken(await token({}, { kid: 'rotated-key', key: 'unpublished' }), 'unknown_key');
    expect(issuer.jwksFetches()).toBe(before + 1);
    await expectInvalidToken(await token({}, { kid: 'another-key', key: 'unpublished' }), 'unknown_key');
    expect(issuer.jwksFetches()).toBe(before + 1);
  });

  it('counts the refusals by reason, and the log holds no token', async () => {
    const metrics = await (await fetch(`${gw.gateway.managementUrl}/metrics`)).text();
    expect(metrics).toMatch(/toolmesh_auth_refusals_total\{reason="no_token"\} [1-9]/);
    expect(metrics).toMatch(/toolmesh_auth_refusals_total\{reason="expired"\} [1-9]/);
    const logs = gw.logs();
    expect(logs).toContain('mcp_http_request_unauthenticated');
    for (const value of tokens) {
      expect(logs).not.toContain(value);
      expect(logs).not.toContain(value.split('.')[2] || value);
    }
  });
});

describe('what is not authenticated', () => {
  it('a CORS preflight', async () => {
    const res = await fetch(gw.url, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://localhost:3000',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization',
      },
    });
    expect(res.status).toBe(204);
  });

  it('the management port', async () => {
    expect((await fetch(`${gw.gateway.managementUrl}/actuator/health`)).status).toBe(200);
  });
});

describe('per-tool authorization', () => {
  const names = async (headers: Record<string, string>) =>
    ((await (await listTools(headers)).json()) as { result: { tools: Array<{ name: string }> } }).result.tools.map((tool) => tool.name);

  it('lists only the tools the token covers', async () => {
    const narrow = await names(bearer(await token({ scope: 'tools' })));
    expect(narrow).toContain('echo_text');
    expect(narrow).not.toContain('customer_lookup');
    const wide = await names(bearer(await token({ scope: 'tools customers:read' })));
    expect(wide).toContain('customer_lookup');
  });

  it('marks a 2026 list private: it is for this caller alone', async () => {
    const res = await gw.post(MODERN_LIST, { ...MODERN_HEADERS, ...bearer(await token()) });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { result: { cacheScope: string } }).result.cacheScope).toBe('private');
  });

  it('refuses a call the token does not cover with 403 insufficient_scope naming the scope, before the tool service', async () => {
    await tools.clearCalls();
    const res = await gw.post(
      { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'customer_lookup', arguments: { customerId: 'C1001' } } },
      bearer(await token({ scope: 'tools' })),
    );
    expect(res.status).toBe(403);
    expect(res.headers.get('www-authenticate')).toBe(
      `Bearer error="insufficient_scope", resource_metadata="${METADATA_URL}", scope="tools customers:read"`,
    );
    expect(((await res.json()) as { id: number }).id).toBe(7);
    expect(await tools.calls()).toEqual([]);
  });

  it("shows each tool's required scopes in toolBundles", async () => {
    const status = (await (await fetch(`${gw.gateway.managementUrl}/actuator/toolBundles`)).json()) as {
      bundles: Array<{ requiredScopes: Record<string, string[]> }>;
    };
    expect(status.bundles[0].requiredScopes.customer_lookup).toEqual(['customers:read']);
    expect(status.bundles[0].requiredScopes.echo_text).toBeUndefined();
  });

  it('sends the tool service the verified identity as headers, never the token', async () => {
    await tools.clearCalls();
    const value = await token({ sub: 'user-42', client_id: 'agent-cli', scope: 'tools customers:read' });
    const res = await gw.post(
      { jsonrpc: '2.0', id: 8, method: 'tools/call', params: { name: 'customer_lookup', arguments: { customerId: 'C1001' } } },
      { ...bearer(value), 'x-user-subject': 'someone-else' },
    );
    expect(res.status).toBe(200);
    const [call] = await tools.calls();
    expect(call.headers['x-user-subject']).toBe('user-42');
    expect(call.headers['x-client-id']).toBe('agent-cli');
    expect(call.headers.authorization).toBeUndefined();
    expect(JSON.stringify(call.headers)).not.toContain(value);
  });
});
