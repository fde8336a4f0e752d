import type { ChildProcess } from 'node:child_process';

import { signalGroup } from './child-process-registry';

export interface TerminateOptions {
  /** How long the server may take to exit by itself once its stdin is closed. */
  readonly exitGraceMs: number;
  /** How long it may take after SIGTERM before its process group gets SIGKILL. */
  readonly killGraceMs: number;
}

/**
 * Ends a server the polite way first: stdin closed (what the MCP stdio spec asks servers to honour),
 * then SIGTERM to its process group, then SIGKILL. Resolves once the child has exited.
 */
export async function terminate(child: ChildProcess, options: TerminateOptions): Promise<void> {
  if (hasExited(child)) {
    signalGroup(child, 'SIGKILL'); // the leader is gone; grandchildren may not be
    return;
  }
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.stdin?.end();
  if (await settlesWithin(exited, options.exitGraceMs)) return signalGroup(child, 'SIGKILL');
  signalGroup(child, 'SIGTERM');
  if (await settlesWithin(exited, options.killGraceMs)) return signalGroup(child, 'SIGKILL');
  signalGroup(child, 'SIGKILL');
  await exited;
}

function hasExited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

async function settlesWithin(promise: Promise<void>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  const result = await Promise.race([promise.then(() => true as const), timeout]);
  clearTimeout(timer);
  return result;
}
