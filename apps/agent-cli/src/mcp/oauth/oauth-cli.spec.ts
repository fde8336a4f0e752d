import { existsSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { type ScriptedLlmServer, startScriptedLlmServer } from '../../agent/test-support/scripted-llm-server';
import { ExitCode } from '../../cli/exit-codes';
import { type CliRun, runBuiltCli } from '../../test-support/built-cli';
import { type OAuthProtectedServer, startOAuthProtectedServer } from '../../test-support/oauth-protected-server';

/**
 * OAuth as a user meets it (SPEC A19): the built CLI against an MCP server behind its own authorization
 * server (test-support/oauth-protected-server.ts), with $BROWSER a headless stand-in that follows the
 * authorization page's redirect to the agent's loopback listener, and a scripted model for `run`.
 */
const HEADLESS_BROWSER = path.join(__dirname, '../../test-support/headless-browser.cjs');

let server: OAuthProtectedServer;
let llm: ScriptedLlmServer;
let dir: string;
let env: NodeJS.ProcessEnv;
const outputs: string[] = [];

beforeEach(async () => {
  server = await startOAuthProtectedServer();
  llm = await startScriptedLlmServer([
    { toolCalls: [{ id: 'c1', name: 'mcp__secure__whoami', arguments: {} }] },
    { text: 'You are signed in.' },
  ]);
  dir = mkdtempSync(path.join(tmpdir(), 'oauth-cli-'));
  mkdirSync(path.join(dir, 'home'));
  writeFileSync(
    path.join(dir, 'agent-cli.yaml'),
    `llm:\n  baseUrl: ${llm.baseUrl}\n  model: scripted-model\nmcp:\n  servers:\n    - name: secure\n      url: ${server.url}\n`,
  );
  // AWS_SECRET_ACCESS_KEY: something of the CLI's environment the browser launcher must not pass on.
  env = {
    PATH: process.env.PATH,
    HOME: path.join(dir, 'home'),
    XDG_CONFIG_HOME: path.join(dir, 'config'),
    BROWSER: HEADLESS_BROWSER,
    AWS_SECRET_ACCESS_KEY: 'not-for-the-browser',
  };
  outputs.length = 0;
});

afterEach(async () => {
  await Promise.all([server.close(), llm.close()]);
});

async function cli(...args: string[]): Promise<CliRun> {
  const run = await runBuiltCli(args, { cwd: dir, env });
  outputs.push(run.stdout, run.stderr);
  return run;
}

const credentialsDirectory = () => path.join(dir, 'config', 'toolmesh-agent', 'oauth');

describe('OAuth through the built CLI', () => {
  it('signs in with mcp login, sends and refreshes the stored token, and logout deletes it; no token is ever printed or written to the transcript', async () => {
    // Before any sign-in a command does not open a browser: it names mcp login.
    const before = await cli('tools');
    expect(before.code).toBe(ExitCode.ServerUnavailable);
    expect(before.stderr).toContain('needs a sign-in: run agent-cli mcp login secure');
    expect(server.grants).toEqual([]);

    const login = await cli('mcp', 'login', 'secure', '--json');
    expect(login).toMatchObject({ code: ExitCode.Ok });
    const { signedIn, credentials } = JSON.parse(login.stdout) as { signedIn: boolean; credentials: string };
    expect(signedIn).toBe(true);
    expect(path.dirname(credentials)).toBe(credentialsDirectory());
    expect(statSync(credentials).mode & 0o777).toBe(0o600);
    expect(statSync(credentialsDirectory()).mode & 0o777).toBe(0o700);
    expect(server.grants).toEqual(['authorization_code']);
    expect(login.stderr).toMatch(
      /to sign in to MCP server "secure", open this address in a browser:\n {2}http:\/\/127\.0\.0\.1:\d+\/authorize\?/,
    );
    const browserEnv = JSON.parse(readFileSync(path.join(dir, 'home', 'browser-env.json'), 'utf8')) as string[];
    expect(browserEnv).toEqual(['BROWSER', 'HOME', 'PATH']); // of the CLI's five, the three the launcher passes on
    const [, firstAccess] = server.issued; // the client secret (registration), then the access and refresh tokens

    // A run uses the stored token as it is, and its transcript holds no credential.
    const run = await cli('run', 'Am I signed in?', '--yes', '--transcript', 'transcript.jsonl');
    expect(run).toMatchObject({ code: ExitCode.Ok });
    expect(run.stdout).toContain('You are signed in.');
    expect(server.grants).toEqual(['authorization_code']);
    expect(new Set(server.mcpTokens)).toEqual(new Set([firstAccess]));
    const transcript = readFileSync(path.join(dir, 'transcript.jsonl'), 'utf8');
    expect(transcript).toContain('signed in');
    outputs.push(transcript);

    // An expired access token is refreshed before it is sent.
    const stored = JSON.parse(readFileSync(credentials, 'utf8')) as { savedAt: number };
    writeFileSync(credentials, JSON.stringify({ ...stored, savedAt: 0 }), { mode: 0o600 });
    const afterExpiry = await cli('call', 'mcp__secure__whoami', '{}', '--yes');
    expect(afterExpiry).toMatchObject({ code: ExitCode.Ok });
    expect(server.grants).toEqual(['authorization_code', 'refresh_token']);
    const refreshedAccess = server.issued[3];
    expect(server.mcpTokens.at(-1)).toBe(refreshedAccess);
    expect(statSync(credentials).mode & 0o777).toBe(0o600);

    const logout = await cli('mcp', 'logout', 'secure', '--json');
    expect(JSON.parse(logout.stdout)).toEqual({ server: 'secure', removed: true, credentials });
    expect(existsSync(credentials)).toBe(false);
    const afterLogout = await cli('call', 'mcp__secure__whoami', '{}', '--yes');
    expect(afterLogout.stderr).toContain('needs a sign-in: run agent-cli mcp login secure');

    // Every token and secret the servers handed out, against every byte the CLI printed or wrote.
    expect(server.issued).toHaveLength(5);
    const everything = outputs.join('\n');
    for (const secret of server.issued) expect({ secret, printed: everything.includes(secret) }).toEqual({ secret, printed: false });
  });

  it('answers a 401 to a stored token with a refresh and one retry, without a browser', async () => {
    expect((await cli('mcp', 'login', 'secure')).code).toBe(ExitCode.Ok);
    server.revokeAccessTokens();

    const call = await cli('call', 'mcp__secure__whoami', '{}', '--yes');

    expect(call).toMatchObject({ code: ExitCode.Ok });
    expect(server.grants).toEqual(['authorization_code', 'refresh_token']);
    expect(server.mcpTokens.at(-1)).toBe(server.issued[3]);
    const everything = outputs.join('\n');
    for (const secret of server.issued) expect({ secret, printed: everything.includes(secret) }).toEqual({ secret, printed: false });
  });

  it('steps up for the scope a call needs: without a browser it names mcp login, which then asks for the union', async () => {
    const writable = await startOAuthProtectedServer({ callScope: 'write' });
    try {
      writeFileSync(path.join(dir, 'agent-cli.yaml'), `mcp:\n  servers:\n    - name: secure\n      url: ${writable.url}\n`);
      expect((await cli('mcp', 'login', 'secure')).code).toBe(ExitCode.Ok);
      expect(writable.authorizationScopes).toEqual(['mcp']); // the resource's scopes_supported

      const refused = await cli('call', 'mcp__secure__whoami', '{}', '--yes');
      expect(refused.code).not.toBe(ExitCode.Ok);
      expect(refused.stderr).toContain('needs a sign-in with the scopes "mcp write": run agent-cli mcp login secure');
      expect(writable.authorizationScopes).toHaveLength(1); // no browser was opened for it

      expect((await cli('mcp', 'login', 'secure')).code).toBe(ExitCode.Ok);
      expect(writable.authorizationScopes).toEqual(['mcp', 'mcp write']);
      expect(await cli('call', 'mcp__secure__whoami', '{}', '--yes')).toMatchObject({ code: ExitCode.Ok });
    } finally {
      await writable.close();
    }
  });

  it('tells a 401 without an OAuth challenge (an API-key server) from one that asks for a sign-in', async () => {
    const keyed = createServer((_req, res) => res.writeHead(401, { 'content-type': 'application/json' }).end('{}'));
    await new Promise<void>((resolve) => keyed.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(keyed.address() as AddressInfo).port}/mcp`;
      writeFileSync(
        path.join(dir, 'agent-cli.yaml'),
        `mcp:\n  servers:\n    - name: keyed\n      url: ${url}\n      headers: { X-Api-Key: wrong }\n`,
      );
      for (const run of [await cli('tools'), await cli('mcp', 'login', 'keyed')]) {
        expect(run.code).not.toBe(ExitCode.Ok);
        expect(run.stderr).toContain(
          'answered HTTP 401 without an OAuth challenge (WWW-Authenticate: Bearer); check the credentials in its "headers"',
        );
      }
      expect(existsSync(credentialsDirectory())).toBe(false);
    } finally {
      keyed.closeAllConnections();
      await new Promise((resolve) => keyed.close(resolve));
    }
  });

  it('login and logout explain what they cannot do', async () => {
    writeFileSync(
      path.join(dir, 'agent-cli.yaml'),
      `mcp:\n  servers:\n    - name: static\n      url: ${server.url}\n      headers: { Authorization: "Bearer x" }\n    - name: local\n      command: node\n`,
    );
    const staticServer = await cli('mcp', 'login', 'static');
    expect(staticServer).toMatchObject({ code: ExitCode.Usage });
    expect(staticServer.stderr).toContain('[oauth.not_configured]');
    const stdio = await cli('mcp', 'logout', 'local');
    expect(stdio.stderr).toContain('is a stdio server');
    const unknown = await cli('mcp', 'login', 'nope');
    expect(unknown).toMatchObject({ code: ExitCode.Usage });
    expect((await cli('mcp', 'logout', 'static', '--json')).stdout).toContain('"removed": false');
  });
});
