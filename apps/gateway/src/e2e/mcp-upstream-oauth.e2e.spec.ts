import { spawnGateway, writeGatewayConfig } from '@toolmesh/test-peers/gateway-process';
import { startOAuthServer, type TestOAuthServer } from '@toolmesh/test-peers/oauth-server';
import { type SampleToolService, startSampleToolService } from '@toolmesh/test-peers/sample-tool-service';
import type { ServerProcess } from '@toolmesh/test-peers/server-process';

import { AUTH_DEFAULTS } from '../config/defaults';
import { startTestGateway, type TestGateway } from '../test-support/test-gateway';

/**
 * OAuth client credentials toward an MCP server (issue 28), end to end: a real authorization server
 * (oidc-provider, the client credentials grant, JWT access tokens for the server's audience) and our own
 * gateway with `auth` on as the server, which takes nothing but a valid token. The built front gateway gets
 * its token for the `secured` bundle and is let in; the `bare` bundle, the same server without `oauth`, is
 * refused, which shows the token is what lets the first in.
 */
const AUDIENCE = 'https://upstream.test.invalid/mcp';
const CLIENT = { id: 'front-gateway', secret: 'client-secret-for-tests' };

type Gateway = ServerProcess & { match: RegExpExecArray };

interface BundleRow {
  bundle: string;
  toolCount: number;
  lastError: { code: string; message: string } | null;
}

describe('OAuth client credentials toward an MCP server (issue 28)', () => {
  let tools: SampleToolService;
  let authorizationServer: TestOAuthServer;
  let upstream: TestGateway;
  let front: Gateway;

  const rpc = async (method: string, params?: unknown) =>
    (await (
      await fetch(front.match[1], {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2025-11-25',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, ...(params !== undefined && { params }) }),
      })
    ).json()) as { result?: { tools?: Array<{ name: string }>; content?: Array<{ text?: string }>; isError?: boolean } };

  beforeAll(async () => {
    tools = await startSampleToolService();
    authorizationServer = await startOAuthServer(AUDIENCE, ['tools'], CLIENT);
    upstream = await startTestGateway(tools.url, (config) => {
      config.auth = {
        ...AUTH_DEFAULTS,
        audience: AUDIENCE,
        authorizationServers: [{ issuer: authorizationServer.issuer, jwksUri: `${authorizationServer.issuer}/jwks` }],
      };
    });
    const file = writeGatewayConfig(
      `server: { port: 0, managementPort: 0 }
mcp:
  shutdownDrainMillis: 1000
  bundles:
    - name: secured
      namePrefix: ok_
      mcpServer:
        url: "\${UPSTREAM_URL}"
        oauth: { tokenUrl: "\${TOKEN_URL}", clientId: ${CLIENT.id}, clientSecret: { env: UPSTREAM_CLIENT_SECRET }, scope: tools, resource: "${AUDIENCE}" }
    - { name: bare, namePrefix: no_, mcpServer: { url: "\${UPSTREAM_URL}" } }
`,
    );
    front = await spawnGateway(file, {
      UPSTREAM_URL: upstream.url,
      TOKEN_URL: `${authorizationServer.issuer}/token`,
      UPSTREAM_CLIENT_SECRET: CLIENT.secret,
    });
  }, 120_000);

  afterAll(async () => {
    await front?.stop();
    await upstream?.stop();
    await authorizationServer?.stop();
    await tools?.stop();
  });

  it("lists and calls the server's tools with the token it got, and the same server without it refuses", async () => {
    const names = (await rpc('tools/list')).result?.tools?.map((tool) => tool.name) ?? [];
    expect(names).toContain('ok_echo_text');
    expect(names.filter((name) => name.startsWith('no_'))).toEqual([]);

    const called = await rpc('tools/call', { name: 'ok_echo_text', arguments: { text: 'through a token' } });
    expect(called.result?.isError).toBeFalsy();
    expect(called.result?.content?.map((block) => block.text).join('')).toContain('through a token');

    const rows = ((await (await fetch(`${front.match[2]}/actuator/toolBundles`)).json()) as { bundles: BundleRow[] }).bundles;
    expect(rows.find((row) => row.bundle === 'secured')).toMatchObject({ lastError: null });
    expect(rows.find((row) => row.bundle === 'bare')).toMatchObject({
      toolCount: 0,
      lastError: { code: 'registry.mcp_server_unreachable', message: expect.stringContaining('401') },
    });
    expect(front.output()).not.toContain(CLIENT.secret);
  });
});
