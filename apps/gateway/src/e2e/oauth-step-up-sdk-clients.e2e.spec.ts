import path from 'node:path';

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as StreamableHTTPClientTransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { freePort } from '@toolmesh/test-peers/free-port';
import { spawnGateway } from '@toolmesh/test-peers/gateway-process';
import { startOAuthServer, type TestOAuthServer } from '@toolmesh/test-peers/oauth-server';
import { type SampleToolService, startSampleToolService } from '@toolmesh/test-peers/sample-tool-service';
import { REPO_ROOT, type ServerProcess } from '@toolmesh/test-peers/server-process';

import { ScriptedSignIn } from '../test-support/scripted-sign-in';

/**
 * Step-up with the MCP SDKs' own OAuth (issue 45, item 4; docs/gateway.md, "Who may call what"), in the
 * documented set-up: config/examples/oauth.yaml on the built gateway, the local authorization server it
 * names (tools/test/peers/oauth-server.mjs) and the sample tool service, each its own process. Each SDK
 * signs in with what the gateway's 401 asks for (`tools`), calls a customer tool, which needs
 * `customers:read`, meets the 403 `insufficient_scope`, signs in again through its own provider (a user who
 * agrees at once) and calls the tool. Each SDK registers once, with its first scope; SDK 1.x, holding a
 * refresh token, would refresh instead, which cannot add a scope: it asks for none (no `offline_access`).
 */
type ToolResult = { content?: unknown; isError?: boolean };

interface SdkSession {
  /** Connects; a sign-in the SDK starts ends at the redirect URI and rejects this with its UnauthorizedError. */
  connect(): Promise<void>;
  /** Hands the redirect URI's parameters to the transport, which exchanges the code for tokens. */
  finishAuth(callback: URLSearchParams): Promise<void>;
  /** Calls a tool; a step-up the SDK starts rejects this as `connect` is. */
  callTool(name: string, args: Record<string, unknown>): Promise<ToolResult>;
  close(): Promise<void>;
}

function sdkV1(url: URL, signIn: ScriptedSignIn): SdkSession {
  let client: ClientV1 | undefined;
  let transport: StreamableHTTPClientTransportV1 | undefined;
  return {
    async connect() {
      client = new ClientV1({ name: 'step-up-sdk-1', version: '1.0.0' });
      transport = new StreamableHTTPClientTransportV1(url, { authProvider: signIn });
      await client.connect(transport);
    },
    finishAuth: async (callback) => transport?.finishAuth(callback.get('code') ?? ''),
    callTool: async (name, args) => (await client?.callTool({ name, arguments: args })) as ToolResult,
    close: async () => client?.close(),
  };
}

function sdkV2(url: URL, signIn: ScriptedSignIn): SdkSession {
  let client: Client | undefined;
  let transport: StreamableHTTPClientTransport | undefined;
  return {
    async connect() {
      client = new Client({ name: 'step-up-sdk-2', version: '1.0.0' });
      transport = new StreamableHTTPClientTransport(url, { authProvider: signIn });
      await client.connect(transport);
    },
    finishAuth: async (callback) => transport?.finishAuth(callback),
    callTool: async (name, args) => (await client?.callTool({ name, arguments: args })) as ToolResult,
    close: async () => client?.close(),
  };
}

let tools: SampleToolService;
let authorizationServer: TestOAuthServer;
let gateway: ServerProcess;
let audience: URL;

beforeAll(async () => {
  tools = await startSampleToolService();
  const port = await freePort(); // the audience is the endpoint's URL, which the SDKs check the metadata's resource against
  audience = new URL(`http://127.0.0.1:${port}/mcp`);
  authorizationServer = await startOAuthServer(audience.href, ['tools', 'customers:read']);
  gateway = await spawnGateway(path.join(REPO_ROOT, 'config/examples/oauth.yaml'), {
    OAUTH_AUDIENCE: audience.href,
    OAUTH_ISSUER: authorizationServer.issuer,
    OAUTH_JWKS_URI: `${authorizationServer.issuer}/jwks`,
    HOST: '127.0.0.1',
    PORT: String(port),
    MANAGEMENT_PORT: '0',
    TOOL_SERVICE_PORT: new URL(tools.url).port,
  });
});
afterAll(async () => {
  await gateway?.stop();
  await authorizationServer?.stop();
  await tools?.stop();
});

it.each([
  ['SDK 1.x', sdkV1],
  ['SDK v2', sdkV2],
])('%s signs in for tools, then steps up to customers:read through the gateway when a customer tool asks for it', async (name, open) => {
  const signIn = new ScriptedSignIn(name);
  const session = open(audience, signIn);
  try {
    await expect(session.connect()).rejects.toThrow(/unauthorized/i); // the 401: a sign-in for what it names
    await session.finishAuth(signIn.takeCallback());
    await session.connect();
    expect(signIn.grantedScopes()).toEqual(['tools']);

    await tools.clearCalls();
    await expect(session.callTool('customer_lookup', { customerId: 'C1001' })).rejects.toThrow(/unauthorized/i); // the 403: a step-up
    expect(signIn.authorizations.at(-1)?.searchParams.get('scope')?.split(' ')).toContain('customers:read');
    await session.finishAuth(signIn.takeCallback());
    // The challenge names what the token grants with what the tool needs: SDK 1.x, which asks for what
    // it names and nothing else, keeps `tools` as SDK v2, which adds what it had, does.
    expect(signIn.grantedScopes()).toEqual(['tools', 'customers:read']);

    const result = await session.callTool('customer_lookup', { customerId: 'C1001' });
    expect(result.isError).toBeFalsy();
    expect(JSON.stringify(result.content)).toContain('Quillfeather Stationers');
    expect((await tools.calls()).map((call) => call.tool)).toEqual(['customer_lookup']); // the refused call never reached it
  } finally {
    await session.close();
  }
});
