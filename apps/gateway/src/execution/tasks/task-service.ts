import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';

import type { ToolDefinition } from '@toolmesh/registry';
import type { Logger } from '@toolmesh/transport-http/server';

import { ended, isTerminal, type TaskRecord } from '../../call/task-record';
import type { ReplyForm } from '../../call/tool-call-outcome';
import type { TaskSettings } from '../../config/task-settings';
import { GatewayErrorCode } from '../../errors/gateway-errors';
import type { TaskPage, TaskStore } from '../../task-state/task-store';
import type { ToolClient, ToolHttpResponse } from '../../tool-client/tool-client';
import { pollDelay } from './retry-after';
import { readStatusReply, type StatusStep } from './status-reply';

/** What a task is created from: a tool whose service accepted the call, where to poll, and for whom. */
export interface AcceptedJob {
  readonly tool: ToolDefinition;
  readonly form: ReplyForm;
  readonly statusUrl: URL;
  readonly retryAfter?: string;
  readonly owner: string;
  /** The TTL the caller asked for (2025-11-25 `task.ttl`). */
  readonly requestedTtlMillis?: number;
}

/** The headers a read of a status URL carries (the gateway's identity, the caller's forwarded ones): never stored. */
export type StatusHeaders = Readonly<Record<string, string>>;

interface LocalPoll {
  timer: NodeJS.Timeout;
  readonly headers: StatusHeaders;
}

/**
 * The tasks of long REST calls (issue 47; docs/adr/0028-tasks-any-replica.md). A task is written to the
 * store before it is answered, so any replica finds it. Its job's status URL is read by whichever replica
 * is due to: the one that created it on a timer, and any replica a caller asks about it (`view`) once its
 * next poll is due; a lease in the store lets one replica at a time read it. So a task whose creating
 * replica died is still advanced, by the next replica its caller asks.
 */
export class TaskService {
  /** The tasks this replica polls on its own (created or adopted here): for callers that wait without asking. */
  private readonly local = new Map<string, LocalPoll>();
  private closed = false;
  private statusChanged: ((owner: string, taskId: string) => void) | undefined;

  constructor(
    private readonly store: TaskStore,
    private readonly client: ToolClient,
    private readonly settings: TaskSettings,
    private readonly toolNamed: (name: string) => ToolDefinition | undefined,
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  /** Records the task (rejects when the store cannot), then polls it on a timer here. */
  async create(job: AcceptedJob, headers: StatusHeaders): Promise<TaskRecord> {
    const now = this.now();
    const { defaultTtlMillis, maxTtlMillis, poll } = this.settings;
    const asked = job.requestedTtlMillis;
    const ttlMs = Math.min(maxTtlMillis, asked !== undefined && Number.isSafeInteger(asked) && asked > 0 ? asked : defaultTtlMillis);
    const delay = pollDelay(job.retryAfter, now, poll);
    const record: TaskRecord = {
      taskId: randomBytes(18).toString('base64url'),
      owner: job.owner,
      tool: job.tool.name,
      statusUrl: job.statusUrl.href,
      cancel: job.tool.task?.cancel ?? 'none',
      form: job.form,
      status: 'working',
      createdAt: now,
      lastUpdatedAt: now,
      ttlMs,
      pollIntervalMs: delay,
      nextPollAt: now + delay,
      failedPolls: 0,
    };
    await this.store.write(record);
    this.logger.info('task_created', { tool: record.tool, ttlMs });
    this.schedule(record, headers);
    return record;
  }

  /**
   * The caller's task as it is now, its job's status read first when a poll is due; undefined when there is
   * no such task of this caller (none, expired, or another caller's: the same answer, so ids cannot be probed).
   */
  async view(taskId: string, owner: string, headers: StatusHeaders): Promise<TaskRecord | undefined> {
    const record = await this.peek(taskId, owner);
    if (record === undefined || isTerminal(record)) return record;
    // A task whose creating replica is gone is polled on here from now on.
    if (!this.local.has(taskId)) this.schedule(record, headers);
    return record.nextPollAt <= this.now() ? this.advance(record, headers) : record;
  }

  /** The caller's task as the store holds it, its job not read (what a status notification tells); undefined as for `view`. */
  async peek(taskId: string, owner: string): Promise<TaskRecord | undefined> {
    const record = await this.store.read(taskId);
    return record?.owner === owner ? record : undefined;
  }

  /**
   * Told, with the task's owner and id, each time this replica writes a task whose status or status message
   * changed: how listening clients hear of it (status notifications). One listener.
   */
  onStatusChange(listener: (owner: string, taskId: string) => void): void {
    this.statusChanged = listener;
  }

  /** Waits (polling as due) until the task ends or `until` (`performance.now()` ms) passes; undefined as for `view`. */
  async settled(taskId: string, owner: string, headers: StatusHeaders, until: number): Promise<TaskRecord | undefined> {
    for (;;) {
      const record = await this.view(taskId, owner, headers);
      if (record === undefined || isTerminal(record)) return record;
      const left = until - performance.now();
      if (left <= 0) return record;
      await sleep(Math.max(20, Math.min(left, record.nextPollAt - this.now(), record.pollIntervalMs)), undefined, { ref: false });
    }
  }

  /**
   * Cancels the caller's task: `cancelled` at once (it stays so), the job told where the tool declares how
   * (DELETE on the status URL), else only the polling stops, as the status message says. `terminal` when
   * the task had ended already (it is left as it was).
   */
  async cancel(taskId: string, owner: string, headers: StatusHeaders): Promise<TaskRecord | 'terminal' | undefined> {
    const record = await this.peek(taskId, owner);
    if (record === undefined) return undefined;
    if (isTerminal(record)) return 'terminal';
    const told = record.cancel === 'delete' ? await this.deleteJob(record, headers) : undefined;
    const statusMessage =
      told === undefined
        ? 'Cancelled at the gateway: polling stopped; the tool service declares no way to cancel, so its job may still run.'
        : told
          ? 'Cancelled: the tool service was asked to stop the job.'
          : 'Cancelled at the gateway: polling stopped; the tool service did not accept the cancellation, so its job may still run.';
    const cancelled: TaskRecord = { ...record, status: 'cancelled', statusMessage, lastUpdatedAt: this.now() };
    await this.store.write(cancelled);
    this.statusChanged?.(owner, taskId);
    this.unschedule(taskId);
    this.logger.info('task_cancelled', { tool: record.tool, toldService: told === true });
    return cancelled;
  }

  /** How many of the caller's tasks are still working, in every replica's store (rejects when the store cannot say). */
  working(owner: string): Promise<number> {
    return this.store.countWorking(owner);
  }

  list(owner: string, cursor: string | undefined): Promise<TaskPage> {
    return this.store.list(owner, cursor, this.settings.listPageSize);
  }

  /** Stops the timers (the tasks live on in the store for other replicas). */
  close(): void {
    this.closed = true;
    for (const { timer } of this.local.values()) clearTimeout(timer);
    this.local.clear();
    this.store.close();
  }

  /** One read of the job's status URL, by this replica if it holds the lease; the record as it then is. */
  private async advance(record: TaskRecord, headers: StatusHeaders): Promise<TaskRecord> {
    const { statusTimeoutMillis } = this.settings;
    if (!(await this.store.lease(record.taskId, statusTimeoutMillis + 1_000))) return record; // another replica reads it now
    const current = (await this.store.read(record.taskId)) ?? record;
    if (isTerminal(current) || current.nextPollAt > this.now()) return current;
    try {
      if (isTerminal(current) || current.nextPollAt > this.now()) return current;
      const started = performance.now();
      const reply = await this.client.post({
        endpoint: new URL(current.statusUrl),
        method: 'GET',
        headers,
        timeoutMillis: statusTimeoutMillis,
      });
      const tool = this.toolNamed(current.tool) ?? { name: current.tool };
      const next = this.stepped(current, readStatusReply(tool, reply, current.form, Math.round(performance.now() - started)), reply);
      // A cancel that landed while the status was read wins: a cancelled task stays cancelled.
      const latest = await this.store.read(record.taskId);
      if (latest === undefined || isTerminal(latest)) return latest ?? next;
      await this.store.write(next);
      if (next.status !== current.status || next.statusMessage !== current.statusMessage) this.statusChanged?.(next.owner, next.taskId);
      if (next.status !== current.status)
        this.logger.info('task_ended', { tool: next.tool, status: next.status, isError: next.result?.isError === true });
      return next;
    } finally {
      await this.store.release(record.taskId);
    }
  }

  private stepped(record: TaskRecord, step: StatusStep, reply: ToolHttpResponse): TaskRecord {
    const now = this.now();
    const { poll, maxFailedPolls } = this.settings;
    switch (step.kind) {
      case 'ended':
        return ended(record, now, step.end);
      case 'working': {
        const delay = pollDelay(step.retryAfter, now, poll);
        return {
          ...record,
          pollIntervalMs: delay,
          nextPollAt: now + delay,
          failedPolls: 0,
          ...(step.statusMessage !== undefined &&
            step.statusMessage !== record.statusMessage && { statusMessage: step.statusMessage, lastUpdatedAt: now }),
        };
      }
      case 'unanswered': {
        const failedPolls = record.failedPolls + 1;
        if (failedPolls >= maxFailedPolls) {
          const message = `Tool ${record.tool}'s status URL gave no answer ${failedPolls} times in a row (mcp.tasks.maxFailedPolls): ${step.detail} [${GatewayErrorCode.TaskStatusInvalid}]`;
          return ended(record, now, { error: { code: -32603, message } });
        }
        this.logger.warn('task_status_unanswered', {
          tool: record.tool,
          failedPolls,
          reason: reply.kind === 'failure' ? reply.reason : 'none',
        });
        return { ...record, failedPolls, nextPollAt: now + poll.defaultMillis };
      }
    }
  }

  /** DELETE on the status URL: true when the service accepted it (2xx, or 404/410: nothing left to stop). */
  private async deleteJob(record: TaskRecord, headers: StatusHeaders): Promise<boolean> {
    const reply = await this.client.post({
      endpoint: new URL(record.statusUrl),
      method: 'DELETE',
      headers,
      timeoutMillis: this.settings.statusTimeoutMillis,
    });
    const accepted =
      reply.kind === 'reply' && ((reply.status >= 200 && reply.status < 300) || reply.status === 404 || reply.status === 410);
    if (!accepted)
      this.logger.warn('task_cancel_refused', { tool: record.tool, status: reply.kind === 'reply' ? reply.status : reply.reason });
    return accepted;
  }

  /** Polls the task here when its next poll is due, until it ends or expires; its caller need not ask. */
  private schedule(record: TaskRecord, headers: StatusHeaders): void {
    if (this.closed || isTerminal(record)) return;
    const existing = this.local.get(record.taskId);
    if (existing) clearTimeout(existing.timer);
    const timer = setTimeout(
      () => {
        void this.advance(record, headers)
          .catch((error: unknown) => {
            this.logger.warn('task_poll_failed', { tool: record.tool, reason: (error as Error).name });
            return { ...record, nextPollAt: this.now() + this.settings.poll.defaultMillis };
          })
          .then((next) => {
            if (next === undefined || isTerminal(next) || this.now() >= next.createdAt + next.ttlMs) this.unschedule(record.taskId);
            else this.schedule(next, headers);
          });
      },
      // Never sooner than the shortest poll interval: a task another replica is reading is looked at again later, not in a loop.
      Math.max(this.settings.poll.minMillis, record.nextPollAt - this.now()),
    );
    timer.unref();
    this.local.set(record.taskId, { timer, headers });
  }

  private unschedule(taskId: string): void {
    const poll = this.local.get(taskId);
    if (poll) clearTimeout(poll.timer);
    this.local.delete(taskId);
  }
}
