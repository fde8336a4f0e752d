import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { startOAuthServer, type TestOAuthServer } from '@toolmesh/test-peers/oauth-server';
import { type SampleToolService, startSampleToolService } from '@toolmesh/test-peers/sample-tool-service';
import { createRemoteJWKSet, decodeJwt, jwtVerify } from 'jose';

import { AUTH_DEFAULTS } from '../config/defaults';
import { startTestGateway, type TestGateway } from '../test-support/test-gateway';

/**
 * A bundle's `tokenExchange` (RFC 8693, issue 26) against a real authorization server (oidc-provider with the
 * token exchange grant registered): the tool service gets a token of the caller's subject whose audience is
 * the tool service, never the caller's own token; one exchange per caller token; a refused exchange means no
 * call, and an `isError` result that says why.
 */
const AUDIENCE = 'https://gateway.test.invalid/mcp';
const TOOL_SERVICE = 'https://tools.test.invalid/';
const CLIENT = { id: 'gateway', secret: 'exchange-secret-for-tests' };

let tools: SampleToolService;
let authorizationServer: TestOAuthServer;
let gw: TestGateway;

beforeAll(async () => {
  tools = await startSampleToolService();
  authorizationServer = await startOAuthServer(AUDIENCE, ['tools'], CLIENT, { exchange: [TOOL_SERVICE] });
  const tokenExchange = { tokenUrl: `${authorizationServer.issuer}/token`, clientId: CLIENT.id, clientSecret: { env: 'EXCHANGE_SECRET' } };
  gw = await startTestGateway(
    tools.url,
    (config) => {
      config.auth = {
        ...AUTH_DEFAULTS,
        audience: AUDIENCE,
        authorizationServers: [{ issuer: authorizationServer.issuer, jwksUri: `${authorizationServer.issuer}/jwks` }],
      };
      config.mcp.bundles = [
        {
          name: 'sample',
          serviceDomain: tools.url,
          manifestPath: '/tool-manifest',
          tokenExchange: { ...tokenExchange, resource: TOOL_SERVICE, scope: 'tools' },
        },
        // The authorization server exchanges tokens for no such resource.
        {
          name: 'unknown',
          serviceDomain: tools.url,
          manifestFile: unknownAudienceManifest(),
          tokenExchange: { ...tokenExchange, resource: 'https://unknown.test.invalid/' },
        },
      ];
    },
    { env: { EXCHANGE_SECRET: CLIENT.secret } },
  );
});
afterAll(async () => {
  await gw?.stop();
  await authorizationServer?.stop();
  await tools?.stop();
});

/** One tool, the sample service's echo_text under another name, of a bundle whose exchange is refused. */
function unknownAudienceManifest(): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'gw-exchange-')), 'manifest.json');
  const tool = {
    name: 'unknown_echo_text',
    description: 'echo_text',
    inputSchema: { type: 'object' },
    endpoint: `${tools.url}/tools/echo_text`,
  };
  writeFileSync(file, JSON.stringify({ tools: [tool] }));
  return file;
}

/** A caller's token for the gateway, from the authorization server (client credentials: its subject is the client). */
async function callerToken(): Promise<string> {
  const res = await fetch(`${authorizationServer.issuer}/token`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${CLIENT.id}:${CLIENT.secret}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({ grant_type: 'client_credentials', scope: 'tools', resource: AUDIENCE }).toString(),
  });
  return ((await res.json()) as { access_token: string }).access_token;
}

async function callEcho(token: string, tool = 'echo_text'): Promise<{ content: Array<{ text: string }>; isError?: boolean }> {
  const res = await gw.post(
    { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: tool, arguments: { text: 'hi' } } },
    { authorization: `Bearer ${token}` },
  );
  expect(res.status).toBe(200);
  return ((await res.json()) as { result: { content: Array<{ text: string }>; isError?: boolean } }).result;
}

/** The Authorization header of each call the tool service received since the last clear. */
async function receivedAuthorizations(): Promise<Array<string | undefined>> {
  const calls = await tools.calls();
  await tools.clearCalls();
  return calls.map((call) => call.headers.authorization);
}

it("sends the tool service a token of the caller's subject for its own audience, never the caller's token", async () => {
  await tools.clearCalls();
  const token = await callerToken();
  expect((await callEcho(token)).isError).toBeFalsy();
  const [authorization] = await receivedAuthorizations();
  expect(authorization).toMatch(/^Bearer /);
  const exchanged = authorization?.slice('Bearer '.length) ?? '';
  expect(exchanged).not.toBe(token);
  const { payload } = await jwtVerify(exchanged, createRemoteJWKSet(new URL(`${authorizationServer.issuer}/jwks`)), {
    issuer: authorizationServer.issuer,
    audience: TOOL_SERVICE,
  });
  expect(payload.sub).toBe(decodeJwt(token).sub);
  expect(payload.scope).toBe('tools');
});

it("exchanges each caller's token once, concurrent calls included, and another caller's anew", async () => {
  await tools.clearCalls();
  const first = await callerToken();
  await Promise.all([callEcho(first), callEcho(first), callEcho(first)]);
  await callEcho(first);
  const second = await callerToken();
  await callEcho(second);
  const received = await receivedAuthorizations();
  expect(received).toHaveLength(5);
  expect(new Set(received.slice(0, 4)).size).toBe(1);
  expect(received[4]).not.toBe(received[0]);
});

it('calls nothing when the exchange is refused, and says why in an isError result', async () => {
  await tools.clearCalls();
  const result = await callEcho(await callerToken(), 'unknown_echo_text');
  expect(result.isError).toBe(true);
  expect(result.content[0].text).toMatch(
    /^Tool unknown_echo_text was not called: bundle unknown: no token for its tool service from http:\/\/127\.0\.0\.1:\d+\/token: the token endpoint answered HTTP 400 \(invalid_target\)\.$/,
  );
  expect(await receivedAuthorizations()).toEqual([]);
  expect(gw.logs()).toContain('event=token_exchange_failed tool=unknown_echo_text code=gateway.token_exchange_failed');
});

it('logs neither token nor the client secret', async () => {
  const token = await callerToken();
  await callEcho(token);
  const [authorization] = await receivedAuthorizations();
  const logs = gw.logs();
  expect(logs).not.toContain(token);
  expect(logs).not.toContain(authorization?.slice('Bearer '.length));
  expect(logs).not.toContain(CLIENT.secret);
});
