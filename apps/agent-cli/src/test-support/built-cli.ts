import { spawn } from 'node:child_process';
import path from 'node:path';

import { REPO_ROOT } from '@toolmesh/test-peers/server-process';

import { cliTestEnv } from './cli-env';

/** The built CLI (`nx build agent-cli`): the tests run it as users do, as a child process. */
export const AGENT_CLI_MAIN = path.join(REPO_ROOT, 'dist/apps/agent-cli/main.js');

export interface CliRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs the built CLI with no terminal (stdin ignored) and resolves with its exit code and output; `env`
 * gets a user configuration folder of the test's own (cli-env.ts).
 */
export function runBuiltCli(args: readonly string[], options: { readonly cwd: string; readonly env: NodeJS.ProcessEnv }): Promise<CliRun> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [AGENT_CLI_MAIN, ...args], {
      cwd: options.cwd,
      env: cliTestEnv(options.env),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

/** One argument for `sh -c`, whatever it holds. */
const shellQuoted = (arg: string) => `'${arg.replaceAll("'", `'\\''`)}'`;

/** The `sh -c` line that runs the built CLI with `args` (for a pseudo-terminal, which runs a command line). */
export const builtCliCommandLine = (args: readonly string[]): string =>
  [process.execPath, AGENT_CLI_MAIN, ...args].map(shellQuoted).join(' ');

/**
 * Runs the built CLI on a pseudo-terminal (util-linux `script`): stdin and stderr are TTYs, so the CLI
 * has someone at the terminal and may take them to a browser. Nothing is typed; stdin stays open until
 * the CLI exits. Resolves with its exit code and its screen (stdout and stderr together).
 */
export function runBuiltCliOnTerminal(
  args: readonly string[],
  options: { readonly cwd: string; readonly env: NodeJS.ProcessEnv },
): Promise<{ readonly code: number | null; readonly screen: string }> {
  return new Promise((resolve) => {
    const child = spawn('script', ['-q', '-e', '-c', builtCliCommandLine(args), '/dev/null'], {
      cwd: options.cwd,
      env: cliTestEnv({ TERM: 'dumb', ...options.env }),
    });
    let screen = '';
    child.stdout.on('data', (chunk: Buffer) => (screen += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (screen += chunk.toString()));
    child.once('exit', (code) => {
      child.stdin.end();
      resolve({ code, screen });
    });
  });
}
