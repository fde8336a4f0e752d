import type { ChildProcess } from 'node:child_process';

/**
 * Every server process group this process started and has not yet seen exit. Exit and signal handlers
 * use it to make sure no server outlives us, even when our own code crashed before closing anything.
 */
export class ChildProcessRegistry {
  private readonly live = new Set<ChildProcess>();

  track(child: ChildProcess): void {
    this.live.add(child);
    child.once('exit', () => this.live.delete(child));
  }

  /**
   * Signals every live process group at once, synchronously: callable from `process.on('exit')`, where
   * nothing asynchronous runs any more.
   */
  signalAll(signal: NodeJS.Signals): void {
    for (const child of this.live) signalGroup(child, signal);
  }

  get size(): number {
    return this.live.size;
  }
}

/** Signals the child's whole process group (it leads one: spawned `detached`), so grandchildren go too. */
export function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // ESRCH: the group is already gone. Fall back to the child itself in case it left its group.
    try {
      child.kill(signal);
    } catch {
      // already exited
    }
  }
}

/** The registry the transports use unless given another; the CLI's exit handlers read it. */
export const childProcesses = new ChildProcessRegistry();
