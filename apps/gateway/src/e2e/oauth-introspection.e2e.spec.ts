import { randomBytes } from 'node:crypto';

import { startOAuthServer, type TestOAuthServer } from '@toolmesh/test-peers/oauth-server';
import { type SampleToolService, startSampleToolService } from '@toolmesh/test-peers/sample-tool-service';

import { AUTH_DEFAULTS } from '../config/defaults';
import { startTestGateway, type TestGateway } from '../test-support/test-gateway';

/**
 * Opaque access tokens through RFC 7662 introspection (`auth.introspection`), against a real authorization
 * server (oidc-provider issuing opaque tokens): a live token lets the call through, once asked about; a
 * revoked one is refused with 401 `invalid_token`; an unknown one costs the server one introspection,
 * however many requests carry it (issue 43).
 */
const AUDIENCE = 'https://gateway.test.invalid/mcp';
const CLIENT = { id: 'gateway-and-machine', secret: 'introspection-secret-for-tests' };

let tools: SampleToolService;
let authorizationServer: TestOAuthServer;
let gw: TestGateway;

beforeAll(async () => {
  tools = await startSampleToolService();
  authorizationServer = await startOAuthServer(AUDIENCE, ['tools'], CLIENT, { opaque: true });
  gw = await startTestGateway(tools.url, (config) => {
    config.auth = {
      ...AUTH_DEFAULTS,
      audience: AUDIENCE,
      authorizationServers: [{ issuer: authorizationServer.issuer, jwksUri: `${authorizationServer.issuer}/jwks` }],
      introspection: { endpoint: `${authorizationServer.issuer}/token/introspection`, clientId: CLIENT.id, clientSecret: CLIENT.secret },
    };
  });
});
afterAll(async () => {
  await gw?.stop();
  await authorizationServer?.stop();
  await tools?.stop();
});

const basic = `Basic ${Buffer.from(`${CLIENT.id}:${CLIENT.secret}`).toString('base64')}`;
const form = (fields: Record<string, string>) => ({
  method: 'POST',
  headers: { authorization: basic, 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(fields).toString(),
});

async function opaqueToken(): Promise<string> {
  const res = await fetch(
    `${authorizationServer.issuer}/token`,
    form({ grant_type: 'client_credentials', scope: 'tools', resource: AUDIENCE }),
  );
  const { access_token: token } = (await res.json()) as { access_token: string };
  expect(token).not.toContain('.'); // opaque, not a JWT
  return token;
}

const callEcho = (token: string) =>
  gw.post(
    { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo_text', arguments: { text: 'hi' } } },
    { authorization: `Bearer ${token}` },
  );

it('lets a live opaque token through', async () => {
  expect((await callEcho(await opaqueToken())).status).toBe(200);
});

it('refuses a revoked opaque token with 401 invalid_token, and logs no token', async () => {
  const token = await opaqueToken();
  expect((await fetch(`${authorizationServer.issuer}/token/revocation`, form({ token }))).status).toBe(200);
  const res = await callEcho(token);
  expect(res.status).toBe(401);
  expect(res.headers.get('www-authenticate')).toContain('error="invalid_token"');
  expect(((await res.json()) as { error: { message: string } }).error.message).toContain('(inactive)');
  expect(gw.logs()).not.toContain(token);
});

it('asks once about an unknown token sent by many requests at once, and not again while its refusal is remembered', async () => {
  const token = randomBytes(24).toString('hex');
  const before = await authorizationServer.introspections();
  const statuses = await Promise.all(Array.from({ length: 20 }, async () => (await callEcho(token)).status));
  expect(statuses).toEqual(Array.from({ length: 20 }, () => 401));
  expect(await authorizationServer.introspections()).toBe(before + 1);
  expect((await callEcho(token)).status).toBe(401);
  expect(await authorizationServer.introspections()).toBe(before + 1);
  expect(gw.logs()).not.toContain(token);
});
