import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { eventually, isRunning } from '@toolmesh/test-peers/process-table';

import { ExitCode } from '../cli/exit-codes';
import { runBuiltCli } from '../test-support/built-cli';

/**
 * Processes that leave their process group (setsid) do not outlive the CLI ("No orphans" in docs/agent-cli.md,
 * "What a stdio server gets"): the built CLI with a stdio server that starts such a daemon, and a Bash
 * command that does.
 */
const SERVER = path.join(__dirname, '../test-support/daemon-starting-server.mjs');
const started: number[] = [];
afterAll(() => {
  for (const pid of started.filter(isRunning)) process.kill(pid, 'SIGKILL');
});

it('a daemon a stdio server started in a session of its own is killed when the CLI exits', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'agent-cli-daemons-'));
  const pidFile = path.join(dir, 'daemon.pid');
  writeFileSync(
    path.join(dir, 'agent-cli.yaml'),
    `mcp:\n  servers:\n    - name: daemon\n      command: ${JSON.stringify(process.execPath)}\n      args: [${JSON.stringify(SERVER)}, ${JSON.stringify(pidFile)}]\n`,
  );
  const run = await runBuiltCli(['tools'], { cwd: dir, env: { PATH: process.env.PATH } });
  expect(run.code).toBe(ExitCode.Ok);
  const daemon = Number(readFileSync(pidFile, 'utf8'));
  started.push(daemon);
  expect(await eventually(() => !isRunning(daemon))).toBe(true);
});

it('a daemon a Bash command started with setsid is killed when the call ends', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'agent-cli-daemons-'));
  const command = `setsid ${JSON.stringify(process.execPath)} -e 'setInterval(() => {}, 1e6)' a-daemon-of-bash > /dev/null 2>&1 & echo $!`;
  const run = await runBuiltCli(['call', 'Bash', JSON.stringify({ command })], { cwd: dir, env: { PATH: process.env.PATH } });
  expect(run.code).toBe(ExitCode.Ok);
  const daemon = Number(run.stdout.split('\n')[0]); // then "[exit code 0]"
  started.push(daemon);
  expect(daemon).toBeGreaterThan(0);
  expect(await eventually(() => !isRunning(daemon))).toBe(true);
});
