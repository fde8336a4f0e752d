import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';

/**
 * A process that leaves its process group (`setsid`, a daemon's double fork) is out of reach of the group
 * kill that ends a stdio server or a Bash command, and nothing in Node can make the CLI a subreaper. What
 * such a process keeps is its environment: every process the CLI starts carries this variable with a mark
 * of this CLI process, its descendants inherit it, and on Linux `/proc/<pid>/environ` shows it, so the
 * CLI can find and kill them wherever they went. What clears or rewrites its environment escapes.
 */
export const PROCESS_MARK_VARIABLE = 'AGENT_CLI_PROCESS_MARK';

const MARK = `${process.pid}-${randomBytes(6).toString('hex')}`;

/** `env` with the mark of this CLI process, and `scope` (one Bash call) when the processes of that alone are to be ended. */
export function markedEnvironment(env: Readonly<Record<string, string>>, scope?: string): Record<string, string> {
  return { ...env, [PROCESS_MARK_VARIABLE]: scope === undefined ? MARK : `${MARK}/${scope}` };
}

/**
 * SIGKILLs every process of ours that carries the mark (of `scope` only, when given): synchronous, so it
 * can run in `process.on('exit')`. Where there is no `/proc` (not Linux) it finds nothing. Returns how
 * many were signalled.
 */
export function killMarkedProcesses(scope?: string): number {
  const wanted = `${PROCESS_MARK_VARIABLE}=${scope === undefined ? MARK : `${MARK}/${scope}`}`;
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return 0;
  }
  let killed = 0;
  for (const pid of pids) {
    if (Number(pid) === process.pid) continue;
    let environment: string;
    try {
      environment = readFileSync(`/proc/${pid}/environ`, 'latin1'); // another user's process: EACCES, not ours to end
    } catch {
      continue;
    }
    if (!environment.split('\0').some((entry) => entry === wanted || (scope === undefined && entry.startsWith(`${wanted}/`)))) continue;
    try {
      process.kill(Number(pid), 'SIGKILL');
      killed += 1;
    } catch {
      // gone meanwhile
    }
  }
  return killed;
}
