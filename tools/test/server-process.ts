import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import path from 'node:path';

/**
 * The repository's root: the nearest folder above this file that holds nx.json. Not a fixed climb from
 * `__dirname`, since a bench bundles this file into dist/bench/<name>/, two folders deeper than tools/test/.
 */
export const REPO_ROOT = repositoryRoot(__dirname);

function repositoryRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'nx.json'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no nx.json in any folder above ${from}`);
  }
}

export interface ServerProcess {
  readonly child: ChildProcess;
  /** Everything the process wrote to stdout so far. */
  output(): string;
  /**
   * Resolves once stdout matches `pattern` `times` times, and rejects, quoting it, after `timeoutMs`. What a
   * test expects in a log must be awaited so: a gateway writes its log lines in batches, up to 20 ms after
   * they are logged (batching-transport.ts), so a line logged before an answer may come after it.
   */
  logged(pattern: RegExp, times?: number, timeoutMs?: number): Promise<void>;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
}

/**
 * Starts a built app (`dist/apps/<app>/main.js`) as its own process and waits until its stdout matches
 * `ready`. The environment is minimal: PATH plus what the test passes.
 */
export function spawnServerProcess(
  app: string,
  env: Record<string, string>,
  ready: RegExp,
  args: string[] = [],
): Promise<ServerProcess & { match: RegExpExecArray }> {
  return spawnNodeScript(path.join(REPO_ROOT, 'dist/apps', app, 'main.js'), env, ready, args);
}

/** `spawnServerProcess` for any Node script (a peer under tools/test/peers), named by its path. */
export async function spawnNodeScript(
  script: string,
  env: Record<string, string>,
  ready: RegExp,
  args: string[] = [],
): Promise<ServerProcess & { match: RegExpExecArray }> {
  const app = path.basename(script) === 'main.js' ? path.basename(path.dirname(script)) : path.basename(script);
  const child = spawn(process.execPath, [script, ...args], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let errors = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (errors += chunk));
  const match = await new Promise<RegExpExecArray>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${app} did not become ready: ${output}${errors}`)), 60_000);
    const check = () => {
      const found = ready.exec(output);
      if (found) {
        clearTimeout(timer);
        child.stdout?.off('data', check);
        resolve(found);
      }
    };
    child.stdout?.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${app} exited with ${code} before it was ready: ${output}${errors}`));
    });
  });
  const everyMatch = (pattern: RegExp) => new RegExp(pattern.source, pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`);
  return {
    child,
    match,
    output: () => output,
    logged: async (pattern, times = 1, timeoutMs = 10_000) => {
      const all = everyMatch(pattern);
      const deadline = Date.now() + timeoutMs;
      while ((output.match(all)?.length ?? 0) < times) {
        if (Date.now() > deadline)
          throw new Error(`${app} did not log ${pattern} ${times} times within ${timeoutMs} ms; its last output: ${output.slice(-2000)}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    stop: async () => {
      if (child.exitCode !== null) return child.exitCode;
      child.kill('SIGTERM');
      const [code] = await once(child, 'exit');
      return code as number | null;
    },
  };
}
