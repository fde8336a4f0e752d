import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { eventually, pidsWithCommandLine } from '@toolmesh/test-peers/process-table';

/**
 * SPEC A5: no server process outlives the CLI, on Ctrl-C, on SIGTERM and on a crash of the CLI's own code.
 * Each test runs the built CLI with a stdio server that ignores stdin EOF and SIGTERM and has started a
 * child of its own, then proves from the process table that both are gone once the CLI has exited.
 */
const ROOT = path.join(__dirname, '../../../..');
const MAIN = path.join(ROOT, 'dist/apps/agent-cli/main.js');
const PEER = path.join(ROOT, 'tools/test/peers/stdio-peer.mjs');
const CRASH = path.join(ROOT, 'tools/test/peers/crash-after-connect.cjs');

const serverProcesses = (name: string) => pidsWithCommandLine(`=${name}`);

function configFor(name: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'agent-cli-orphans-'));
  const file = path.join(dir, 'agent-cli.yaml');
  writeFileSync(
    file,
    `mcp:\n  servers:\n    - name: ${name}\n      command: ${JSON.stringify(process.execPath)}\n      args: [${JSON.stringify(PEER)}, "--name=${name}", --stubborn, --grandchild]\n`,
  );
  return file;
}

/** What a test started, killed after it whatever happened, so a failing test leaves nothing behind. */
const leftovers: Array<() => void> = [];
afterEach(() => leftovers.splice(0).forEach((kill) => kill()));

async function startCliWithServer(name: string, nodeArgs: string[] = []) {
  leftovers.push(() => serverProcesses(name).forEach((pid) => process.kill(pid, 'SIGKILL')));
  const cli = spawn(process.execPath, [...nodeArgs, MAIN, 'call', `mcp__${name}__slow`, '{"ms":60000}', '--config', configFor(name)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  cli.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  leftovers.push(() => cli.exitCode === null && cli.kill('SIGKILL'));
  const exited = new Promise<number | null>((resolve) => cli.once('exit', (code) => resolve(code)));
  // The server (--name=<name>) and its child (--grandchild-of=<name>) are both up; the CLI's own command
  // line names the tool, not "=<name>", so it is not counted.
  const up = await eventually(() => stderr.includes(`ok     ${name}`) && serverProcesses(name).length === 2, 15_000);
  if (!up) throw new Error(`the server did not come up; CLI stderr:\n${stderr}`);
  return { cli, exited, stderr: () => stderr };
}

describe('no server process outlives the CLI', () => {
  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)('on %s: closes the server (SIGKILL after the grace periods) and exits with %i', async (signal, expected) => {
    const name = `orphan-${signal.toLowerCase()}-${process.pid}`;
    const { cli, exited, stderr } = await startCliWithServer(name);

    cli.kill(signal);

    expect(await exited).toBe(expected);
    expect(stderr()).toContain(`${signal} received, closing MCP servers`);
    expect(await eventually(() => serverProcesses(name).length === 0, 2000)).toBe(true);
  });

  it("on a crash of the CLI's own code: reports an internal error, kills the server group, exits with 70", async () => {
    const name = `orphan-crash-${process.pid}`;
    const { exited, stderr } = await startCliWithServer(name, ['-r', CRASH]);

    expect(await exited).toBe(70);
    expect(stderr()).toContain('agent-cli: internal error, please report it');
    expect(stderr()).toContain('simulated crash of agent-cli');
    expect(await eventually(() => serverProcesses(name).length === 0, 2000)).toBe(true);
  });
});
