import { Client, ClientCredentialsProvider, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { freePort } from '@toolmesh/test-peers/free-port';
import { startOAuthServer, type TestOAuthServer } from '@toolmesh/test-peers/oauth-server';
import { type SampleToolService, startSampleToolService } from '@toolmesh/test-peers/sample-tool-service';

import { AUTH_DEFAULTS } from '../config/defaults';
import { startTestGateway, type TestGateway } from '../test-support/test-gateway';

/**
 * With `auth` on, the MCP SDK v2 client and its own OAuth provider (client credentials, as a service
 * calls a service) connect to the gateway through a real authorization server (oidc-provider): the 401
 * challenge, the metadata, the token for this resource, then tools in both eras (SPEC G27).
 */
const CLIENT = { id: 'machine-client', secret: 'machine-secret-for-tests' };

let tools: SampleToolService;
let authorizationServer: TestOAuthServer;
let gw: TestGateway;

beforeAll(async () => {
  tools = await startSampleToolService();
  const port = await freePort(); // the audience is the endpoint's URL, which the SDK checks the metadata's resource against
  const audience = `http://127.0.0.1:${port}/mcp`;
  authorizationServer = await startOAuthServer(audience, ['tools'], CLIENT);
  gw = await startTestGateway(tools.url, (config) => {
    config.server.port = port;
    config.auth = {
      ...AUTH_DEFAULTS,
      audience,
      authorizationServers: [{ issuer: authorizationServer.issuer, jwksUri: `${authorizationServer.issuer}/jwks` }],
      scopesSupported: ['tools'],
      toolPolicies: [{ tools: '*', scopes: ['tools'] }],
    };
  });
});
afterAll(async () => {
  await gw?.stop();
  await authorizationServer?.stop();
  await tools?.stop();
});

it.each([
  ['2025-11-25', 'legacy' as const],
  ['2026-07-28', { pin: '2026-07-28' } as const],
])('the SDK v2 client with its OAuth provider signs in and calls a tool (%s)', async (_, mode) => {
  const client = new Client({ name: 'sdk-oauth', version: '1.0.0' }, { versionNegotiation: { mode } });
  const authProvider = new ClientCredentialsProvider({
    clientId: CLIENT.id,
    clientSecret: CLIENT.secret,
    scope: 'tools',
    expectedIssuer: authorizationServer.issuer,
  });
  await client.connect(new StreamableHTTPClientTransport(new URL(gw.url), { authProvider }));
  try {
    const { tools: listed } = await client.listTools();
    expect(listed.map((tool) => tool.name)).toContain('echo_text');
    const result = await client.callTool({ name: 'echo_text', arguments: { text: 'through oauth' } });
    expect(result.content).toEqual([expect.objectContaining({ type: 'text', text: 'through oauth' })]);
  } finally {
    await client.close();
  }
});
