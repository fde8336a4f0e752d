import { expiresAt, isTerminal, type TaskRecord } from '../call/task-record';

/** A page of one caller's tasks, oldest first, and where the next page starts (opaque to clients). */
export interface TaskPage {
  readonly records: readonly TaskRecord[];
  readonly next?: string;
}

/**
 * Where tasks live: in Redis for replicas that share them (redis-task-store.ts), else in this process
 * (MemoryTaskStore). A record is gone once its TTL has passed, whatever its status.
 */
export interface TaskStore {
  /** Resolves once a read of the task from any replica finds it (SEP-2663: durably created before it is answered). */
  write(record: TaskRecord): Promise<void>;
  read(taskId: string): Promise<TaskRecord | undefined>;
  /** The caller's tasks created at or after `cursor`, at most `limit`. */
  list(owner: string, cursor: string | undefined, limit: number): Promise<TaskPage>;
  /** How many of the caller's tasks are still working (not ended, not expired): what `mcp.tasks.maxWorkingPerCaller` caps. */
  countWorking(owner: string): Promise<number>;
  /**
   * Takes the right to read the task's status URL for `holdMillis`: true for one taker at a time, so that
   * replicas serving the same task do not poll its service together.
   */
  lease(taskId: string, holdMillis: number): Promise<boolean>;
  /** Gives the lease up before its time: the status was read. */
  release(taskId: string): Promise<void>;
  close(): void;
}

/** Cursors are a creation time and a task id (ids break ties), base64url-encoded so clients treat them as opaque. */
export function encodeCursor(record: TaskRecord): string {
  return Buffer.from(`${record.createdAt}:${record.taskId}`).toString('base64url');
}

export function decodeCursor(cursor: string): { createdAt: number; taskId: string } | undefined {
  const [createdAt, taskId] = Buffer.from(cursor, 'base64url').toString('utf8').split(':');
  const at = Number(createdAt);
  return Number.isSafeInteger(at) && taskId !== undefined && taskId !== '' ? { createdAt: at, taskId } : undefined;
}

/** One replica's tasks, in memory: what serves a gateway without Redis. Expired records are dropped as they are met. */
export class MemoryTaskStore implements TaskStore {
  private readonly records = new Map<string, TaskRecord>();
  private readonly leases = new Map<string, number>();

  constructor(private readonly now: () => number = Date.now) {}

  write(record: TaskRecord): Promise<void> {
    this.sweep();
    this.records.set(record.taskId, record);
    return Promise.resolve();
  }

  read(taskId: string): Promise<TaskRecord | undefined> {
    const record = this.records.get(taskId);
    if (record !== undefined && expiresAt(record) <= this.now()) {
      this.records.delete(taskId);
      return Promise.resolve(undefined);
    }
    return Promise.resolve(record);
  }

  list(owner: string, cursor: string | undefined, limit: number): Promise<TaskPage> {
    this.sweep();
    const from = cursor === undefined ? undefined : decodeCursor(cursor);
    const mine = [...this.records.values()]
      .filter((record) => record.owner === owner)
      .sort((a, b) => a.createdAt - b.createdAt || a.taskId.localeCompare(b.taskId))
      .filter(
        (record) =>
          from === undefined || record.createdAt > from.createdAt || (record.createdAt === from.createdAt && record.taskId >= from.taskId),
      );
    const records = mine.slice(0, limit);
    const next = mine[limit];
    return Promise.resolve({ records, ...(next !== undefined && { next: encodeCursor(next) }) });
  }

  countWorking(owner: string): Promise<number> {
    this.sweep();
    let working = 0;
    for (const record of this.records.values()) if (record.owner === owner && !isTerminal(record)) working++;
    return Promise.resolve(working);
  }

  lease(taskId: string, holdMillis: number): Promise<boolean> {
    const now = this.now();
    if ((this.leases.get(taskId) ?? 0) > now) return Promise.resolve(false);
    this.leases.set(taskId, now + holdMillis);
    return Promise.resolve(true);
  }

  release(taskId: string): Promise<void> {
    this.leases.delete(taskId);
    return Promise.resolve();
  }

  close(): void {
    this.records.clear();
  }

  /** Drops what has expired: each write pays for the ones before it, so memory holds only live tasks. */
  private sweep(): void {
    const now = this.now();
    for (const [taskId, record] of this.records) if (expiresAt(record) <= now) this.records.delete(taskId);
    for (const [taskId, until] of this.leases) if (until <= now) this.leases.delete(taskId);
  }
}
