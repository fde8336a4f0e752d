import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { eventually, pidsWithCommandLine } from '@toolmesh/test-peers/process-table';
import { ChildProcessRegistry } from '@toolmesh/transport-stdio';

import { resultText } from '../tool';
import { BASH_MAX_OUTPUT_BYTES, BashTool } from './bash-tool';

const dir = mkdtempSync(path.join(tmpdir(), 'bash-tool-'));
const processes = new ChildProcessRegistry();
const bash = new BashTool({ workingDirectory: dir }, processes);

interface Outcome {
  exitCode: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  aborted: boolean;
}

describe('Bash', () => {
  it('runs a command in the working directory and returns its output and exit code 0', async () => {
    const result = await bash.execute({ command: 'pwd; echo oops >&2; echo made > made.txt' });
    expect(result.isError).toBe(false);
    expect(resultText(result)).toBe(`${dir}\n[stderr]\noops\n[exit code 0]`);
    expect(result.structuredContent).toEqual({
      exitCode: 0,
      signal: null,
      stdout: `${dir}\n`,
      stderr: 'oops\n',
      timedOut: false,
      aborted: false,
    });
    expect(readFileSync(path.join(dir, 'made.txt'), 'utf8')).toBe('made\n');
  });

  it('returns a non-zero exit as an error result carrying the exit code', async () => {
    const result = await bash.execute({ command: 'echo partial; exit 3' });
    expect(result.isError).toBe(true);
    expect(resultText(result)).toBe('partial\n[exit code 3]');
    expect((result.structuredContent as Outcome).exitCode).toBe(3);
  });

  it('gives the command the minimal environment, without our other variables', async () => {
    process.env.BASH_TOOL_SECRET = 'do-not-leak';
    try {
      const result = await bash.execute({ command: 'echo "[$BASH_TOOL_SECRET]"; echo "$PATH"' });
      expect(resultText(result)).toBe(`[]\n${process.env.PATH}\n[exit code 0]`);
    } finally {
      delete process.env.BASH_TOOL_SECRET;
    }
  });

  it('kills the whole process group on timeout, grandchildren included', async () => {
    const grandchild = `sleep 31.${process.pid}`; // a command line no other process has
    const child = `sleep 32.${process.pid}`;
    const started = Date.now();
    const result = await bash.execute({ command: `sh -c '${grandchild}; echo late' & ${child}`, timeout_ms: 500 });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(result.isError).toBe(true);
    expect(resultText(result)).toBe("[timed out after 500 ms; the command's process group was killed]");
    expect((result.structuredContent as Outcome).timedOut).toBe(true);
    expect(await eventually(() => pidsWithCommandLine(grandchild).length + pidsWithCommandLine(child).length === 0)).toBe(true);
    expect(processes.size).toBe(0);
  });

  it('kills what the command left running in the background once it ends', async () => {
    const background = `sleep 33.${process.pid}`;
    const result = await bash.execute({ command: `${background} > /dev/null 2>&1 & echo started` });
    expect(resultText(result)).toBe('started\n[exit code 0]');
    expect(await eventually(() => pidsWithCommandLine(background).length === 0)).toBe(true);
  });

  it('kills the process group when the call is aborted', async () => {
    const marker = `sleep 34.${process.pid}`;
    const controller = new AbortController();
    const pending = bash.execute({ command: `${marker}; echo late` }, controller.signal);
    // Both the shell and its sleep have the marker in their command line: wait until both run.
    expect(await eventually(() => pidsWithCommandLine(marker).length === 2)).toBe(true);
    controller.abort();
    const result = await pending;
    expect(result.isError).toBe(true);
    expect(resultText(result)).toBe("[cancelled; the command's process group was killed]");
    expect(await eventually(() => pidsWithCommandLine(marker).length === 0)).toBe(true);
  });

  it(`keeps at most ${BASH_MAX_OUTPUT_BYTES / 1024} KiB of output and says how much there was`, async () => {
    const result = await bash.execute({ command: `head -c ${BASH_MAX_OUTPUT_BYTES + 1000} /dev/zero | tr '\\0' a` });
    const { stdout } = result.structuredContent as Outcome;
    expect(stdout.startsWith('a'.repeat(BASH_MAX_OUTPUT_BYTES))).toBe(true);
    expect(stdout.slice(BASH_MAX_OUTPUT_BYTES)).toBe(
      `\n[output cut at ${BASH_MAX_OUTPUT_BYTES / 1024} KiB of ${BASH_MAX_OUTPUT_BYTES + 1000} bytes]`,
    );
  });

  it('returns an error result when the shell cannot start, and tracks no process', async () => {
    const missing = path.join(dir, 'no-such-folder');
    const result = await new BashTool({ workingDirectory: missing }, processes).execute({ command: 'true' });
    expect(result.isError).toBe(true);
    expect(resultText(result)).toContain(`Bash failed: could not start /bin/sh in ${missing}: `);
    expect(processes.size).toBe(0);
  });

  it.each([
    [{}, 'arguments.command is required'],
    [{ command: 'true', timeout_ms: 600_001 }, 'arguments.timeout_ms must be <= 600000'],
    [{ command: 'true', timeout_ms: 1.5 }, 'arguments.timeout_ms must be integer'],
    [{ command: 'true', env: {} }, 'arguments.env is not allowed'],
  ])('returns an error result for %j without running anything', async (args, message) => {
    const result = await bash.execute(args);
    expect(result.isError).toBe(true);
    expect(resultText(result)).toContain(`invalid arguments for Bash: `);
    expect(resultText(result)).toContain(message);
  });
});
