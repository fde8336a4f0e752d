import { spawn } from 'node:child_process';

import { cliTestEnv } from './cli-env';

/** A program on a pseudo-terminal whose screen the test reads in order and types into, like a person watching it. */
export interface TerminalSession {
  readonly exited: Promise<number | null>;
  /** Everything written to the terminal so far. */
  readonly screen: string;
  /** Resolves once `text` is on the screen past what earlier waits consumed; rejects when the program exits first. */
  waitFor(text: string): Promise<void>;
  /** A line, then Enter. */
  type(line: string): void;
  /** Keys as they are, e.g. Ctrl-D (\x04). */
  press(keys: string): void;
  /** SIGKILL, when it still runs (a test's clean-up). */
  kill(): void;
}

/**
 * Runs `command` (a `sh -c` line) under util-linux `script`, which gives it a pseudo-terminal: stdin and
 * stderr are TTYs, so the agent CLI opens its readline and asks its questions there.
 */
export function onTerminal(command: string, options: { readonly cwd: string; readonly term?: string }): TerminalSession {
  const child = spawn('script', ['-q', '-e', '-c', command, '/dev/null'], {
    cwd: options.cwd,
    env: cliTestEnv({ PATH: process.env.PATH, TERM: options.term ?? 'dumb' }),
  });
  let screen = '';
  let seen = 0;
  const waiters = new Set<() => void>();
  child.stdout.on('data', (chunk: Buffer) => {
    screen += chunk.toString('utf8');
    for (const wake of waiters) wake();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  return {
    exited,
    get screen() {
      return screen;
    },
    waitFor: (text) =>
      new Promise<void>((resolve, reject) => {
        const check = () => {
          const at = screen.indexOf(text, seen);
          if (at < 0) return;
          seen = at + text.length;
          waiters.delete(check);
          resolve();
        };
        waiters.add(check);
        void exited.then(() =>
          waiters.has(check) ? reject(new Error(`exited before "${text}" appeared; the screen:\n${screen}`)) : undefined,
        );
        check();
      }),
    type: (line) => child.stdin.write(`${line}\r`),
    press: (keys) => child.stdin.write(keys),
    kill: () => {
      if (child.exitCode === null) child.kill('SIGKILL');
    },
  };
}
