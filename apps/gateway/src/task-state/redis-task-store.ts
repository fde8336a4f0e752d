import type { KeyValueConnection } from '@toolmesh/registry';

import { expiresAt, isTerminal, type TaskRecord } from '../call/task-record';
import { decodeCursor, encodeCursor, type TaskPage, type TaskStore } from './task-store';

/**
 * Tasks in Redis, shared by every replica (docs/adr/0028-tasks-any-replica.md): each record a JSON value
 * that expires with the task's TTL, each caller's tasks a sorted index by creation time (for `tasks/list`),
 * each caller's working tasks a second sorted index scored by expiry (counted for `mcp.tasks.maxWorkingPerCaller`
 * in one command; a task leaves it when it ends, or drops out of the count at its expiry), each task's poll
 * lease a key set only where absent. A record that does not parse is treated as absent.
 */
export class RedisTaskStore implements TaskStore {
  constructor(
    private readonly redis: KeyValueConnection,
    private readonly keyPrefix: string,
    /** The longest TTL granted (`mcp.tasks.maxTtlMillis`): the working index is kept that long after each add, so it outlives every member. */
    private readonly maxTtlMillis: number,
    private readonly now: () => number = Date.now,
  ) {}

  async write(record: TaskRecord): Promise<void> {
    const left = expiresAt(record) - this.now();
    if (left <= 0) return;
    await this.redis.set(this.recordKey(record.taskId), JSON.stringify(record), left);
    await this.redis.indexAdd(this.ownerKey(record.owner), record.taskId, record.createdAt, left);
    const working = this.workingKey(record.owner);
    if (isTerminal(record)) await this.redis.indexRemove(working, record.taskId);
    else await this.redis.indexAdd(working, record.taskId, expiresAt(record), Math.max(left, this.maxTtlMillis));
  }

  async read(taskId: string): Promise<TaskRecord | undefined> {
    const text = await this.redis.get(this.recordKey(taskId));
    if (text === undefined) return undefined;
    try {
      const record = JSON.parse(text) as TaskRecord;
      return typeof record === 'object' && record !== null && record.taskId === taskId ? record : undefined;
    } catch {
      return undefined;
    }
  }

  async list(owner: string, cursor: string | undefined, limit: number): Promise<TaskPage> {
    const from = cursor === undefined ? undefined : decodeCursor(cursor);
    const index = this.ownerKey(owner);
    const records: TaskRecord[] = [];
    let fromScore = from?.createdAt ?? 0;
    // Reads a little more than a page: members before the cursor's id at its time, and expired ones, are skipped.
    for (let round = 0; round < 4 && records.length <= limit; round++) {
      const members = await this.redis.indexRange(index, fromScore, limit + 1 - records.length + 8);
      if (members.length === 0) break;
      for (const { member, score } of members) {
        if (from !== undefined && score === from.createdAt && member < from.taskId) continue;
        if (records.some((record) => record.taskId === member)) continue;
        const record = await this.read(member);
        if (record === undefined || record.owner !== owner) await this.redis.indexRemove(index, member);
        else records.push(record);
      }
      fromScore = members[members.length - 1].score;
      if (members.length < limit + 1) break;
    }
    records.sort((a, b) => a.createdAt - b.createdAt || a.taskId.localeCompare(b.taskId));
    const next = records[limit];
    return { records: records.slice(0, limit), ...(next !== undefined && { next: encodeCursor(next) }) };
  }

  countWorking(owner: string): Promise<number> {
    return this.redis.indexCount(this.workingKey(owner), this.now() + 1);
  }

  lease(taskId: string, holdMillis: number): Promise<boolean> {
    return this.redis.setIfAbsent(this.leaseKey(taskId), '1', holdMillis);
  }

  release(taskId: string): Promise<void> {
    return this.redis.delete(this.leaseKey(taskId));
  }

  close(): void {
    this.redis.close();
  }

  private leaseKey(taskId: string): string {
    return `${this.keyPrefix}:task-lease:${taskId}`;
  }

  private recordKey(taskId: string): string {
    return `${this.keyPrefix}:task:${taskId}`;
  }

  private ownerKey(owner: string): string {
    return `${this.keyPrefix}:tasks-of:${owner}`;
  }

  private workingKey(owner: string): string {
    return `${this.keyPrefix}:tasks-working-of:${owner}`;
  }
}
