import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { freePort } from '../../../tools/test/free-port';
import { spawnGateway } from '../../../tools/test/gateway-process';
import { startOAuthServer, type TestOAuthServer } from '../../../tools/test/oauth-server';
import { type SampleToolService, startSampleToolService } from '../../../tools/test/sample-tool-service';
import type { ServerProcess } from '../../../tools/test/server-process';
import { ExitCode } from './cli/exit-codes';
import { type CliRun, runBuiltCli } from './test-support/built-cli';

/**
 * The agent CLI and the gateway as the two halves of the MCP authorization specification (SPEC A19, G27),
 * every part real and built: oidc-provider as the authorization server (dynamic registration, PKCE,
 * resource indicators), the gateway as the protected resource, the sample tool service behind it. The
 * CLI signs in, sees only what its scopes cover and calls a tool; the tool service gets the verified
 * identity and never a token. (The CLI never calls a tool it was not shown, so a hidden tool cannot make
 * it step up here; the gateway's 403 challenge is tested in oauth-resource-server.e2e.spec.ts, the CLI's
 * step-up in mcp/oauth/oauth-cli.spec.ts.)
 */
const HEADLESS_BROWSER = path.join(__dirname, 'test-support/headless-browser.cjs');

let tools: SampleToolService;
let authorizationServer: TestOAuthServer;
let gateway: ServerProcess;
let dir: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  tools = await startSampleToolService();
  const port = await freePort();
  const audience = `http://127.0.0.1:${port}/mcp`;
  authorizationServer = await startOAuthServer(audience, ['tools', 'customers:read']);
  dir = mkdtempSync(path.join(tmpdir(), 'gateway-oauth-'));
  const gatewayConfig = path.join(dir, 'gateway.yaml');
  // The challenge to a caller without a token asks for `tools` only: the customer tools need a step-up.
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
    - { tools: "customer_*", scopes: [customers:read] }
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

async function listedTools(): Promise<string[]> {
  const listed = await cli('tools', '--json');
  expect(listed).toMatchObject({ code: ExitCode.Ok });
  return (JSON.parse(listed.stdout) as { tools: Array<{ name: string }> }).tools.map((tool) => tool.name);
}

it('signs in, lists only what its scopes cover and calls a tool, which sees the verified identity and no token', async () => {
  const login = await cli('mcp', 'login', 'gateway');
  expect(login).toMatchObject({ code: ExitCode.Ok });

  const listed = await listedTools();
  expect(listed).toContain('mcp__gateway__echo_text');
  expect(listed).not.toContain('mcp__gateway__customer_lookup'); // needs customers:read, which the sign-in did not ask for

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
