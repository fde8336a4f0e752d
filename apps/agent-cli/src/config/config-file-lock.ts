import { closeSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

import { AgentError, AgentErrorCode } from '../errors/agent-errors';
import { PROGRAM } from '../program-name';

/** How long an editor waits for another to finish; an edit holds the lock for milliseconds. */
const WAIT_MS = 10_000;
const RETRY_MS = 20;
/** A lock older than this is stale even if its process id is in use again: no edit takes that long. */
const STALE_AFTER_MS = 30_000;

/**
 * Runs `edit` (a read, change and write of `file`) while holding `<file>.lock`, so two `mcp add` / `mcp
 * remove` at once never lose an update: the second reads what the first wrote. The lock is a file created
 * exclusively, holding its process id. A lock left by a process that is gone (killed mid-edit) is stale:
 * it is broken, under a second exclusive file so that two waiters never both break it and both edit.
 * After waiting WAIT_MS for a live holder, the edit is refused (`config.locked`) rather than forced.
 */
export async function withFileLock<T>(file: string, edit: () => T): Promise<T> {
  const lock = `${file}.lock`;
  const deadline = Date.now() + WAIT_MS;
  while (!tryCreate(lock)) {
    if (isStale(lock)) breakStale(lock);
    else if (Date.now() > deadline) {
      throw new AgentError(
        AgentErrorCode.ConfigLocked,
        `${file} is being edited by another ${PROGRAM} (the lock ${lock} is held by process ${holderOf(lock) ?? 'unknown'}); try again, or delete ${lock} if no ${PROGRAM} is running`,
      );
    }
    await sleep(RETRY_MS);
  }
  try {
    return edit();
  } finally {
    rmSync(lock, { force: true });
  }
}

function tryCreate(lock: string): boolean {
  let fd: number;
  try {
    fd = openSync(lock, 'wx', 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    writeSync(fd, String(process.pid));
  } finally {
    closeSync(fd);
  }
  return true;
}

/** The holder's process id; undefined while it is being written (a holder that just created the file). */
function holderOf(lock: string): number | undefined {
  try {
    const pid = Number(readFileSync(lock, 'utf8'));
    return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

function isStale(lock: string): boolean {
  let age: number;
  try {
    age = Date.now() - statSync(lock).mtimeMs;
  } catch {
    return false; // gone already: the next attempt creates it
  }
  if (age > STALE_AFTER_MS) return true;
  const pid = holderOf(lock);
  // An empty file younger than a second is a holder between creating and writing it.
  if (pid === undefined) return age > 1_000;
  return !isAlive(pid);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'; // alive, someone else's
  }
}

/**
 * Deletes a stale lock, once: whoever creates `<lock>.break` checks again that the lock is still the stale
 * one and deletes it; the others wait and retry. A breaker killed in these few lines leaves a `.break` that
 * ages out like a lock.
 */
function breakStale(lock: string): void {
  const breaker = `${lock}.break`;
  if (!tryCreate(breaker)) {
    if (isStale(breaker)) rmSync(breaker, { force: true });
    return;
  }
  try {
    if (isStale(lock)) rmSync(lock, { force: true });
  } finally {
    rmSync(breaker, { force: true });
  }
}
