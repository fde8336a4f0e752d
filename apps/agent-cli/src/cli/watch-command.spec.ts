import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { eventually, pidsWithCommandLine } from '@toolmesh/test-peers/process-table';

import { AGENT_CLI_MAIN } from '../test-support/built-cli';
import { cliTestEnv } from '../test-support/cli-env';
import { ExitCode } from './exit-codes';

/**
 * `agent-cli watch` as a real child process (the built dist/apps/agent-cli/main.js) against a real
 * SDK-built MCP server that sends notifications on its own a moment after it is initialized.
 */
const ROOT = path.join(__dirname, '../../../..');
const PEER = path.join(ROOT, 'tools/test/peers/notifying-peer.mjs');
const dir = mkdtempSync(path.join(tmpdir(), 'rewake-watch-'));

/** A configuration with one notifying server, named uniquely so the process table can find it. */
function configFor(name: string, peerArgs: string[]): string {
  const file = path.join(dir, `${name}.yaml`);
  writeFileSync(
    file,
    `mcp:
  servers:
    - name: jobs
      command: ${JSON.stringify(process.execPath)}
      args: ${JSON.stringify([PEER, `--name=${name}`, ...peerArgs])}
rewake:
  rules:
    - { method: "notifications/peer/*", type: peer.custom }
`,
  );
  return file;
}

const leftovers: Array<() => void> = [];
afterEach(() => leftovers.splice(0).forEach((kill) => kill()));

function watch(name: string, ...args: string[]) {
  leftovers.push(() => pidsWithCommandLine(`--name=${name}`).forEach((pid) => process.kill(pid, 'SIGKILL')));
  const child = spawn(process.execPath, [AGENT_CLI_MAIN, 'watch', ...args], {
    cwd: dir,
    env: cliTestEnv(process.env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  leftovers.push(() => child.exitCode === null && child.kill('SIGKILL'));
  const out = { stdout: '', stderr: '' };
  child.stdout.on('data', (chunk: Buffer) => (out.stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (out.stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, out, exited };
}

const lines = (stdout: string) =>
  stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));

describe('agent-cli watch', () => {
  it('prints each event as one JSON line on stdout, progress on stderr, and exits 0 after --count events with the server stopped', async () => {
    const name = `watch-count-${process.pid}`;
    const { out, exited } = watch(name, '--count', '3', '--config', configFor(name, ['--notify-on-start=100']));

    expect(await exited).toBe(ExitCode.Ok);
    expect(lines(out.stdout)).toEqual([
      expect.objectContaining({
        server: 'jobs',
        type: 'resource.updated',
        method: 'notifications/resources/updated',
        summary: { uri: 'file:///peer/ready' },
      }),
      expect.objectContaining({
        server: 'jobs',
        type: 'log',
        method: 'notifications/message',
        summary: { level: 'info', logger: 'peer', data: 'peer started' },
      }),
      expect.objectContaining({
        server: 'jobs',
        type: 'peer.custom',
        method: 'notifications/peer/custom',
        summary: { data: 'peer custom event' },
      }),
    ]);
    expect(lines(out.stdout).map((event) => event.id)).toEqual(['evt-1', 'evt-2', 'evt-3']);
    expect(out.stderr).toContain('connecting to 1 MCP server(s): jobs');
    expect(out.stderr).toContain('watching jobs for events (stopping after 3 event(s)); Ctrl-C to stop');
    expect(await eventually(() => pidsWithCommandLine(`--name=${name}`).length === 0, 5000)).toBe(true);
  });

  it('stops after --timeout with exit 0 and nothing on stdout when no event arrives', async () => {
    const name = `watch-timeout-${process.pid}`;
    const { out, exited } = watch(name, '--timeout', '300', '--config', configFor(name, []));

    expect(await exited).toBe(ExitCode.Ok);
    expect(out.stdout).toBe('');
    expect(await eventually(() => pidsWithCommandLine(`--name=${name}`).length === 0, 5000)).toBe(true);
  });

  it.each([
    ['SIGINT', ExitCode.Interrupted],
    ['SIGTERM', ExitCode.Terminated],
  ] as const)('runs until %s, then stops the server and exits %i without orphans', async (signal, expected) => {
    const name = `watch-${signal.toLowerCase()}-${process.pid}`;
    const { child, out, exited } = watch(name, '--config', configFor(name, ['--notify-on-start=0']));
    expect(await eventually(() => lines(out.stdout).length === 3, 15_000)).toBe(true);
    expect(pidsWithCommandLine(`--name=${name}`)).toHaveLength(1);

    child.kill(signal);

    expect(await exited).toBe(expected);
    expect(out.stderr).toContain(`${signal} received, closing MCP servers`);
    expect(await eventually(() => pidsWithCommandLine(`--name=${name}`).length === 0, 5000)).toBe(true);
  });

  it('refuses a bad --count before starting any server (exit 2)', async () => {
    const name = `watch-usage-${process.pid}`;
    const { out, exited } = watch(name, '--count', 'many', '--config', configFor(name, []));
    expect(await exited).toBe(ExitCode.Usage);
    expect(out.stderr).toContain('agent-cli watch: --count must be a positive whole number, not "many"');
    expect(out.stderr).not.toContain('connecting');
  });
});
