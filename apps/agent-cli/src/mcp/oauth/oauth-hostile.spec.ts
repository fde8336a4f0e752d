import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { ExitCode } from '../../cli/exit-codes';
import { runBuiltCli } from '../../test-support/built-cli';
import {
  type OAuthProtectedServer,
  type OAuthProtectedServerOptions,
  PLAIN_HTTP_ELSEWHERE,
  startOAuthProtectedServer,
} from '../../test-support/oauth-protected-server';

/**
 * OAuth against a hostile server (docs/agent-cli.md, "OAuth for remote servers"): the built CLI's
 * `mcp login` against an MCP server whose metadata sends one step over plain http to another machine,
 * or whose token response is oversized. Nothing is sent there, no browser opens, nothing is stored.
 */
const HEADLESS_BROWSER = path.join(__dirname, '../../test-support/headless-browser.cjs');

let server: OAuthProtectedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function login(options: OAuthProtectedServerOptions) {
  server = await startOAuthProtectedServer(options);
  const dir = mkdtempSync(path.join(tmpdir(), 'oauth-hostile-'));
  mkdirSync(path.join(dir, 'home'));
  writeFileSync(path.join(dir, 'agent-cli.yaml'), `mcp:\n  servers:\n    - name: secure\n      url: ${server.url}\n`);
  const env = {
    PATH: process.env.PATH,
    HOME: path.join(dir, 'home'),
    XDG_CONFIG_HOME: path.join(dir, 'config'),
    BROWSER: HEADLESS_BROWSER,
  };
  const run = await runBuiltCli(['mcp', 'login', 'secure'], { cwd: dir, env });
  const oauthDir = path.join(dir, 'config/toolmesh-agent/oauth');
  const stored = existsSync(oauthDir)
    ? readdirSync(oauthDir)
        .map((file) => readFileSync(path.join(oauthDir, file), 'utf8'))
        .join('\n')
    : '';
  return { ...run, browserOpened: existsSync(path.join(dir, 'home', 'browser-env.json')), stored };
}

it.each([
  ['authorization-server', 'send an OAuth request'],
  ['registration', 'send an OAuth request'],
  ['authorization-page', 'open the sign-in page'],
] as const)('refuses plain http to another machine for the %s step, before sending anything there', async (step, what) => {
  const run = await login({ plainHttpElsewhere: step });
  expect(run.code).toBe(ExitCode.Failure);
  expect(run.stderr).toContain(`refused to ${what} at ${PLAIN_HTTP_ELSEWHERE}: OAuth goes over https, or over http only to this machine`);
  expect(run.browserOpened).toBe(false);
  expect(run.stored).not.toContain('access_token');
});

it('refuses a token response over 256 KiB and stores no token', async () => {
  const run = await login({ tokenPaddingBytes: 1024 * 1024 });
  expect(run.code).toBe(ExitCode.Failure);
  expect(run.stderr).toMatch(/the OAuth response from http:\/\/127\.0\.0\.1:\d+ is larger than 256 KiB; refused/);
  expect(run.stored).not.toContain('access_token');
  for (const token of server?.issued ?? []) expect(run.stderr).not.toContain(token);
});
