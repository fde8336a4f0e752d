import type { Readable } from 'node:stream';

import { runCli } from '../cli/run-cli';
import type { Terminal } from '../cli/terminal';
import { cliTestEnv } from './cli-env';

interface InProcessRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

interface InProcessOptions {
  readonly cwd: string;
  /** PATH alone unless given; always with a user configuration folder of the test's own (cli-env.ts). */
  readonly env?: NodeJS.ProcessEnv;
  readonly version?: string;
  readonly stdin?: Readable;
  readonly terminal?: Terminal;
}

/** Runs the CLI in process through runCli, as from a shell in `cwd`, and resolves with its exit code and output. */
export async function runCliInProcess(args: readonly string[], options: InProcessOptions): Promise<InProcessRun> {
  const out = { stdout: '', stderr: '' };
  const io = {
    stdout: (text: string) => void (out.stdout += text),
    stderr: (text: string) => void (out.stderr += text),
    stdin: options.stdin,
    terminal: options.terminal,
  };
  const code = await runCli(args, io, {
    version: options.version ?? '0.0.0-test',
    cwd: options.cwd,
    env: cliTestEnv(options.env ?? { PATH: process.env.PATH }),
  });
  return { code, ...out };
}

/** What a refused run matches: its exit code, and stderr that says `message` (a string it contains, or a pattern). */
export function refused(code: number, message: string | RegExp): { code: number; stderr: unknown } {
  return { code, stderr: typeof message === 'string' ? expect.stringContaining(message) : expect.stringMatching(message) };
}
