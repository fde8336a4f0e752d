import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { freePort } from '@toolmesh/test-peers/free-port';
import { spawnGateway } from '@toolmesh/test-peers/gateway-process';
import { startOAuthServer, type TestOAuthServer } from '@toolmesh/test-peers/oauth-server';
import { type SampleToolService, startSampleToolService } from '@toolmesh/test-peers/sample-tool-service';
import type { ServerProcess } from '@toolmesh/test-peers/server-process';

import { ExitCode } from '../cli/exit-codes';
import { type CliRun, runBuiltCli, runBuiltCliOnTerminal } from '../test-support/built-cli';

/**
 * The agent CLI and the gateway as the two halves of the MCP authorization specification (SPEC A19, G27),
 * every part real and built: oidc-provider as the authorization server (dynamic registration, PKCE,
 * resource indicators, refresh), the gateway as the protected resource, the sample tool service behind
 * it. The CLI signs in with the small first scope the gateway's challenge asks for (`tools`) and sees
 * what that covers: `echo_text`, and the customer tools, which the operator's policy makes discoverable
 * (listed, but called only with `customers:read`), not the order tools, whose policy is not. Calling a
 * customer tool meets the 403 `insufficient_scope`; without a terminal the CLI names `mcp login`, on one
 * it steps up through the browser (a headless stand-in, which consents again; the client registers anew,
 * since its first registration named only the first scope) and the call goes through. The tool service
 * gets the verified identity and never a token.
 */
const HEADLESS_BROWSER = path.join(__dirname, '../test-support/headless-browser.cjs');

let tools: SampleToolService;
let authorizationServer: TestOAuthServer;
let gateway: ServerProcess;
let dir: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  tools = await startSampleToolService();
  const port = await freePort();
  const audience = `http://127.0.0.1:${port}/mcp`;
  // Strict, as some production servers are: the CLI's step-up registers anew for the scope it adds.
  authorizationServer = await startOAuthServer(audience, ['tools', 'customers:read', 'orders:read'], undefined, {
    strictRegistration: true,
  });
  dir = mkdtempSync(path.join(tmpdir(), 'gateway-oauth-'));
  const gatewayConfig = path.join(dir, 'gateway.yaml');
  // The challenge to a caller without a token asks for `tools` only: the customer tools need a step-up.
  // Scope minimization: the customer tools are listed at once, the order tools only with their scope.
  writeFileSync(
    gatewayConfig,
    `server: { port: ${port}, managementPort: 0 }
mcp:
  bundles:
    - { name: sample, serviceDomain: "${tools.url}", manifestPath: /tool-manifest }
auth:
  audience: ${audience}
  authorizationServers:
    - { issuer: "${authorizationServer.issuer}", jwksUri: "${authorizationServer.issuer}/jwks" }
  scopesSupported: [tools]
  toolPolicies:
    - { tools: "*", scopes: [tools] }
    - { tools: "customer_*", scopes: [customers:read], discoverable: true }
    - { tools: "order_*", scopes: [orders:read] }
  identityHeaders: { x-user-subject: sub, x-client-id: client_id }
`,
  );
  gateway = await spawnGateway(gatewayConfig);
  mkdirSync(path.join(dir, 'home'));
  writeFileSync(path.join(dir, 'agent-cli.yaml'), `mcp:\n  servers:\n    - name: gateway\n      url: ${audience}\n`);
  env = { PATH: process.env.PATH, HOME: path.join(dir, 'home'), XDG_CONFIG_HOME: path.join(dir, 'config'), BROWSER: HEADLESS_BROWSER };
});
afterAll(async () => {
  await gateway?.stop();
  await authorizationServer?.stop();
  await tools?.stop();
});

const cli = (...args: string[]): Promise<CliRun> => runBuiltCli(args, { cwd: dir, env });

interface StoredSignIn {
  /** The scopes the CLI last asked for. */
  readonly requested?: string;
  /** The scopes its dynamic client registration was made for. */
  readonly registered: string[];
  readonly accessToken: string;
  /** The scopes its access token grants. */
  readonly granted: string[];
}

/** The CLI's stored sign-in, read from its credentials file. */
function storedSignIn(): StoredSignIn {
  const directory = path.join(dir, 'config', 'toolmesh-agent', 'oauth');
  const [file] = readdirSync(directory).filter((name) => name.endsWith('.json'));
  const stored = JSON.parse(readFileSync(path.join(directory, file), 'utf8')) as {
    scope?: string;
    clientInformation: { scope: string };
    tokens: { access_token: string };
  };
  const accessToken = stored.tokens.access_token;
  const claims = JSON.parse(Buffer.from(accessToken.split('.')[1], 'base64url').toString('utf8')) as { scope: string };
  return { requested: stored.scope, registered: stored.clientInformation.scope.split(' '), accessToken, granted: claims.scope.split(' ') };
}

async function listedTools(): Promise<string[]> {
  const listed = await cli('tools', '--json');
  expect(listed).toMatchObject({ code: ExitCode.Ok });
  return (JSON.parse(listed.stdout) as { tools: Array<{ name: string }> }).tools.map((tool) => tool.name);
}

it('signs in, lists only what its scopes cover and calls a tool, which sees the verified identity and no token', async () => {
  const login = await cli('mcp', 'login', 'gateway');
  expect(login).toMatchObject({ code: ExitCode.Ok });

  // The scope asked for is the one the gateway's 401 challenge named (stored as the last asked for).
  expect(storedSignIn()).toMatchObject({ requested: 'tools', granted: ['tools'] });

  const listed = await listedTools();
  expect(listed).toContain('mcp__gateway__echo_text');
  expect(listed).toContain('mcp__gateway__customer_lookup'); // discoverable: listed, though it needs customers:read
  expect(listed).not.toContain('mcp__gateway__order_search'); // needs orders:read, which the sign-in did not ask for

  await tools.clearCalls();
  const call = await cli('call', 'mcp__gateway__echo_text', '{"text":"signed in"}', '--yes');
  expect(call).toMatchObject({ code: ExitCode.Ok });
  expect(call.stdout).toContain('signed in');
  const [received] = await tools.calls();
  expect(received.headers['x-user-subject']).toBe('user-1');
  expect(received.headers['x-client-id']).toEqual(expect.any(String));
  expect(received.headers.authorization).toBeUndefined();
  expect(gateway.output()).not.toMatch(/eyJ[A-Za-z0-9_-]{10,}\./); // no JWT in the gateway's log
});

it('steps up on insufficient_scope: without a terminal it names mcp login, on one it signs in again for the scope and calls the tool', async () => {
  const before = storedSignIn();
  await tools.clearCalls();
  const refused = await cli('call', 'mcp__gateway__customer_lookup', '{"customerId":"C1001"}', '--yes');
  expect(refused.code).not.toBe(ExitCode.Ok);
  expect(refused.stderr).toMatch(/needs a sign-in with the scopes "[^"]*customers:read[^"]*": run agent-cli mcp login gateway/);
  expect(storedSignIn().accessToken).toBe(before.accessToken); // nobody could be asked: no new token

  const call = await runBuiltCliOnTerminal(['call', 'mcp__gateway__customer_lookup', '{"customerId":"C1001"}', '--yes'], { cwd: dir, env });
  expect(call).toMatchObject({ code: ExitCode.Ok, screen: expect.stringContaining('Quillfeather Stationers') });
  const after = storedSignIn();
  expect(after.accessToken).not.toBe(before.accessToken);
  expect(after.granted).toEqual(expect.arrayContaining(['tools', 'customers:read'])); // a second token, for the added scope
  expect(after.granted).not.toContain('orders:read'); // only what the challenge asked for
  // The first registration was for `tools` only, and oidc-provider refuses such a client any other scope.
  expect(before.registered).not.toContain('customers:read');
  expect(after.registered).toContain('customers:read');

  const calls = await tools.calls();
  expect(calls.map((received) => received.tool)).toEqual(['customer_lookup']); // the refused call never reached it
  expect(calls[0].headers['x-user-subject']).toBe('user-1');
  expect(calls[0].headers.authorization).toBeUndefined();
  for (const token of [before.accessToken, after.accessToken]) expect(gateway.output()).not.toContain(token);
  expect(call.screen).not.toContain(after.accessToken);
});
