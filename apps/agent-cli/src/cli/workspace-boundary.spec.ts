import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { type ScriptedLlmServer, type ScriptedToolCall, startScriptedLlmServer } from '../agent/test-support/scripted-llm-server';
import { runBuiltCli } from '../test-support/built-cli';
import { ExitCode } from './exit-codes';

/**
 * The built-in file tools keep to the workspace (docs/agent-cli.md, "Workspace"): the built CLI with a
 * scripted model that goes after the CLI's stored OAuth tokens (by path, through a symbolic link, by Grep
 * and Glob over the config directory, and by Bash) and after files outside the working directory.
 */
const ACCESS_TOKEN = 'tok-SECRET-access-1234567890';
const REFRESH_TOKEN = 'tok-SECRET-refresh-0987654321';

let llm: ScriptedLlmServer | undefined;
afterEach(async () => {
  await llm?.close();
  llm = undefined;
});

interface Setup {
  readonly dir: string;
  readonly configHome: string;
  readonly credentials: string;
  readonly outside: string;
  readonly extraRoot: string;
  readonly env: NodeJS.ProcessEnv;
}

/** A workspace, an XDG config home holding a stored sign-in, a folder outside and an extra root. */
function setup(baseUrl: string): Setup {
  const base = mkdtempSync(path.join(tmpdir(), 'agent-cli-workspace-'));
  const dir = path.join(base, 'project');
  const configHome = path.join(base, 'config');
  const outside = path.join(base, 'elsewhere');
  const extraRoot = path.join(base, 'shared');
  for (const folder of [dir, path.join(configHome, 'toolmesh-agent/oauth'), outside, extraRoot]) mkdirSync(folder, { recursive: true });
  const credentials = path.join(configHome, 'toolmesh-agent/oauth/docs-0123456789abcdef.json');
  writeFileSync(
    credentials,
    JSON.stringify({ tokens: { access_token: ACCESS_TOKEN, refresh_token: REFRESH_TOKEN, token_type: 'Bearer' } }),
    { mode: 0o600 },
  );
  symlinkSync(credentials, path.join(dir, 'innocent.json'));
  writeFileSync(path.join(dir, 'inside.txt'), 'inside the workspace\n');
  writeFileSync(path.join(outside, 'notes.txt'), 'outside the workspace\n');
  writeFileSync(path.join(extraRoot, 'shared.txt'), 'in an extra root\n');
  writeFileSync(path.join(dir, 'agent-cli.yaml'), `llm:\n  baseUrl: ${baseUrl}\n  model: scripted-model\nworkspaceRoots: [../shared]\n`);
  return { dir, configHome, credentials, outside, extraRoot, env: { PATH: process.env.PATH, HOME: base, XDG_CONFIG_HOME: configHome } };
}

/** The model makes these calls in one turn, then ends; resolves with what each call answered the model. */
async function runCalls(
  calls: (s: Setup) => ScriptedToolCall[],
  flags: string[],
): Promise<{ results: string[]; transcript: string; stderr: string; code: number | null; setup: Setup }> {
  let made: ScriptedToolCall[] = [];
  llm = await startScriptedLlmServer((index) => (index === 0 ? { toolCalls: made } : { text: 'done' }));
  const s = setup(llm.baseUrl);
  made = calls(s).map((call, i) => ({ ...call, id: `c${i}` }));
  const run = await runBuiltCli(['run', ...flags, '--transcript', 't.jsonl', 'look around'], { cwd: s.dir, env: s.env });
  const toolMessages = (llm.requests[1]?.body.messages ?? []).filter((m) => m.role === 'tool').map((m) => String(m.content));
  return {
    results: toolMessages,
    transcript: readFileSync(path.join(s.dir, 't.jsonl'), 'utf8'),
    stderr: run.stderr,
    code: run.code,
    setup: s,
  };
}

it("under --yes no file tool reads the CLI's stored tokens, and the transcript never holds them (Bash's output redacted)", async () => {
  const { results, transcript, code } = await runCalls(
    (s) => [
      { name: 'Read', arguments: { path: s.credentials } },
      { name: 'Read', arguments: { path: 'innocent.json' } },
      { name: 'Grep', arguments: { pattern: 'access_token', path: s.configHome } },
      { name: 'Grep', arguments: { pattern: 'access_token' } },
      { name: 'Glob', arguments: { pattern: '**', path: s.configHome } },
      { name: 'Write', arguments: { path: s.credentials, content: '{}' } },
      { name: 'Bash', arguments: { command: `cat ${JSON.stringify(s.credentials)}` } },
    ],
    ['--yes'],
  );
  expect(code).toBe(ExitCode.Ok);
  const [read, readLink, grepConfig, grepWorkspace, glob, write, bash] = results;
  for (const refused of [read, readLink, write])
    expect(refused).toMatch(/refused: the path is in the agent CLI's own configuration and credentials/);
  // The folder that holds the sealed one is outside the workspace; over the workspace with its link, the sealed files are left out.
  expect(grepConfig).toMatch(/Grep refused: .* is outside the workspace/);
  expect(grepWorkspace).not.toMatch(/^innocent\.json:/m); // (the transcript being written matches)
  expect(grepWorkspace).not.toContain(ACCESS_TOKEN);
  expect(glob).not.toContain('docs-0123456789abcdef.json');
  expect(bash).toContain(ACCESS_TOKEN); // Bash is no file tool: see the documented limit
  expect(transcript).not.toContain(ACCESS_TOKEN);
  expect(transcript).not.toContain(REFRESH_TOKEN);
  expect(transcript).toContain('[redacted]');
}, 120_000);

it('outside the workspace a file tool is refused, --yes or not; inside and in workspaceRoots it runs', async () => {
  const { results, transcript } = await runCalls(
    (s) => [
      { name: 'Read', arguments: { path: path.join(s.outside, 'notes.txt') } },
      { name: 'Glob', arguments: { pattern: '*', path: s.outside } },
      { name: 'Read', arguments: { path: 'inside.txt' } },
      { name: 'Read', arguments: { path: path.join(s.extraRoot, 'shared.txt') } },
    ],
    ['--yes'],
  );
  expect(results[0]).toMatch(
    /^Error: Read refused: .*notes\.txt is outside the workspace .* add its folder to workspaceRoots .*\[tool\.outside_workspace\]$/,
  );
  expect(results[1]).toMatch(/^Error: Glob refused: .* is outside the workspace .*\[tool\.outside_workspace\]$/);
  expect(results[2]).toContain('inside the workspace');
  expect(results[3]).toContain('in an extra root');
  expect(transcript).not.toContain('outside the workspace\\n');
}, 120_000);

it("call, the user's own action, keeps to the workspace too; --workspace moves it; --yes never opens the sealed directory", async () => {
  llm = await startScriptedLlmServer([]);
  const s = setup(llm.baseUrl);
  const notes = path.join(s.outside, 'notes.txt');
  const outside = await runBuiltCli(['call', 'Read', JSON.stringify({ path: notes })], { cwd: s.dir, env: s.env });
  expect(outside.code).toBe(ExitCode.Failure);
  expect(outside.stderr).toContain('is outside the workspace');
  const moved = await runBuiltCli(['call', '--workspace', s.outside, 'Read', JSON.stringify({ path: 'notes.txt' })], {
    cwd: s.dir,
    env: s.env,
  });
  expect(moved.stdout).toContain('outside the workspace'); // the file's own text, read from the workspace given

  const sealed = await runBuiltCli(['call', '--yes', 'Read', JSON.stringify({ path: s.credentials })], { cwd: s.dir, env: s.env });
  expect(sealed.code).toBe(ExitCode.Failure);
  expect(sealed.stdout + sealed.stderr).not.toContain(ACCESS_TOKEN);
});
