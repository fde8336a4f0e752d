import { isTerminal, type McpTask, type TaskClient, type TaskStatus } from '@toolmesh/mcp-client';
import { errorMessage, type NotificationSource, printableName } from '@toolmesh/protocol';
import type { ExternalEventResolver } from '@toolmesh/rewake-bridge';

import { errorResult, type ToolResult } from '../../tools/tool';
import { toolResultOf } from '../call-tool-result';

/** The poll interval when the server names none, and the bounds put on the one it names. */
const TASK_POLL = { defaultMs: 1000, minMs: 100, maxMs: 30_000, maxFailed: 3 } as const;

/** One task the agent started, as `/tasks` shows it. */
export interface BackgroundTask {
  readonly taskId: string;
  readonly server: string;
  /** The agent's name of the tool (`mcp__<server>__<tool>`). */
  readonly tool: string;
  /** The model's call that started it. */
  readonly callId?: string;
  readonly status: TaskStatus;
  readonly statusMessage?: string;
  readonly startedAt: Date;
}

/** A task that ended, with what its call came to: the result the model gets in place of the handle. */
export interface TaskCompletion {
  readonly task: BackgroundTask;
  readonly result: ToolResult;
}

/** How the tracker reaches a server's tasks: the current client's, which a reconnect replaces. */
export type TaskClientOf = () => TaskClient | undefined;

interface Tracked {
  info: BackgroundTask;
  readonly client: TaskClientOf;
  timer?: NodeJS.Timeout;
  ending?: boolean;
  /** Polls that failed in a row. */
  failedPolls?: number;
  /** The keys of the input requests already answered (a server repeats each until it has its answer). */
  readonly answered: Set<string>;
  /** Set while the task's input is being given: a poll in between does not ask the user again. */
  responding?: boolean;
}

/**
 * The tasks the agent's calls became (SPEC A24): each followed until it ends, by the server's status
 * notifications where it sends them and by polling `tasks/get` at the server's `pollInterval` (bounded by
 * TASK_POLL) otherwise; the spec says not to rely on notifications. An ended task's result is fetched, queued
 * for the loop to give to the model, and told on the rewake path (an `ExternalEvent` of type `task.<status>`),
 * so a model waiting in WaitForEvent wakes too. Never throws from its timers: a task that cannot be followed
 * ends as a failed call saying why.
 */
export class BackgroundTasks {
  private readonly tasks = new Map<string, Tracked>();
  private readonly ended: TaskCompletion[] = [];
  private waiters: Array<() => void> = [];
  private closed = false;
  private events = 0;

  constructor(
    private readonly sink: Pick<ExternalEventResolver, 'publish'> | undefined,
    private readonly warn: (message: string) => void,
  ) {}

  /** Listens to the servers' notifications: a status notification of a tracked task is taken as a poll's answer. */
  listen(source: NotificationSource): () => void {
    return source.addNotificationListener(({ server, notification }) => {
      // Any tracked task of the server knows its era's notification; the task it tells of is looked up by id.
      const some = [...this.tasks.values()].find((tracked) => tracked.info.server === server);
      const task = some?.client()?.statusOf(notification);
      const tracked = task && this.tasks.get(key(server, task.taskId));
      if (tracked) this.observe(tracked, task);
    });
  }

  /** Follows a task a call just became. */
  track(task: McpTask, owner: { server: string; tool: string; callId?: string }, client: TaskClientOf): BackgroundTask {
    const tracked: Tracked = {
      info: { ...owner, taskId: task.taskId, status: task.status, startedAt: new Date(), ...message(task) },
      client,
      answered: new Set(),
    };
    this.tasks.set(key(owner.server, task.taskId), tracked);
    this.observe(tracked, task);
    return tracked.info;
  }

  /** Every task started and not yet given to the model, oldest first. */
  list(): BackgroundTask[] {
    return [...this.tasks.values()].map((t) => t.info);
  }

  /** How many are still running (not ended). */
  get running(): number {
    return [...this.tasks.values()].filter((t) => !t.ending).length;
  }

  /** How many ended and were not taken yet. */
  get endedCount(): number {
    return this.ended.length;
  }

  /** The ended tasks not yet taken, in the order they ended. */
  takeEnded(): TaskCompletion[] {
    return this.ended.splice(0);
  }

  /** Resolves when a task has ended (at once if one has and was not taken), or when the signal aborts. */
  async nextEnded(signal?: AbortSignal): Promise<void> {
    if (this.ended.length > 0 || this.running === 0) return;
    await new Promise<void>((resolve, reject) => {
      const onAbort = () => reject(signal?.reason);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiters.push(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      });
    });
  }

  /**
   * Cancels a task with `tasks/cancel` (the id as `/tasks` shows it). The server decides when it stops; the
   * call's result says it was cancelled, whatever the server's last state.
   */
  async cancel(taskId: string): Promise<string> {
    const tracked = [...this.tasks.values()].find((t) => t.info.taskId === taskId && !t.ending);
    if (!tracked) return `no running task ${printableName(taskId)}; /tasks lists them`;
    const client = tracked.client();
    if (!client) return `MCP server "${tracked.info.server}" is not connected; task ${printableName(taskId)} was not cancelled`;
    try {
      const task = await client.cancel(taskId);
      this.end(
        tracked,
        { ...tracked.info, status: 'cancelled', ...(task && message(task)) },
        errorResult(`the task ${taskId} was cancelled by the user`),
      );
      // 2026-07-28 only acknowledges; a 2025-11-25 server answers with the task's state.
      const said = task ? `; its server reports it ${task.status}` : '; its server acknowledged';
      return `task ${printableName(taskId)} (${tracked.info.tool}) cancelled${said}`;
    } catch (error) {
      return `cancelling task ${printableName(taskId)} failed: ${errorMessage(error)}`;
    }
  }

  /** Stops following every task (the session ends); they go on at their servers. */
  close(): void {
    this.closed = true;
    for (const tracked of this.tasks.values()) clearTimeout(tracked.timer);
    this.wake();
  }

  private observe(tracked: Tracked, task: McpTask): void {
    if (tracked.ending || this.closed) return;
    tracked.info = { ...tracked.info, status: task.status, ...message(task) };
    clearTimeout(tracked.timer);
    if (isTerminal(task.status)) {
      tracked.ending = true;
      void this.finish(tracked, task);
      return;
    }
    if (task.status === 'input_required' && !tracked.responding) void this.respond(tracked, task);
    const interval = Math.min(TASK_POLL.maxMs, Math.max(TASK_POLL.minMs, task.pollIntervalMs ?? TASK_POLL.defaultMs));
    tracked.timer = setTimeout(() => void this.poll(tracked), interval);
  }

  private async poll(tracked: Tracked): Promise<void> {
    const client = tracked.client();
    try {
      if (!client) throw new Error(`MCP server "${tracked.info.server}" is not connected`);
      this.observe(tracked, await client.get(tracked.info.taskId));
      tracked.failedPolls = 0;
    } catch (error) {
      // A server that is reconnecting, or one slow answer, is tried again; TASK_POLL.maxFailed in a row end it.
      tracked.failedPolls = (tracked.failedPolls ?? 0) + 1;
      if (tracked.failedPolls < TASK_POLL.maxFailed && !this.closed) {
        tracked.timer = setTimeout(() => void this.poll(tracked), TASK_POLL.defaultMs);
        return;
      }
      this.end(
        tracked,
        { ...tracked.info, status: 'failed' },
        errorResult(
          `following the task ${tracked.info.taskId} failed ${TASK_POLL.maxFailed} times in a row, the last: ${errorMessage(error)}`,
        ),
      );
    }
  }

  /**
   * Gives a task that asks for input what it asks (TaskClient.respond: the server's requests go to the same
   * handlers as a call's own, so a form is put to the user as any other), while polling goes on. A 2025-11-25
   * server's `tasks/result` resolves with the call's result: the task ends with it; one that fails is left to
   * the polls, which see the task's end. A 2026-07-28 request the agent cannot answer would leave the task
   * waiting for ever: it is cancelled at its server and the call fails saying why.
   */
  private async respond(tracked: Tracked, task: McpTask): Promise<void> {
    const client = tracked.client();
    if (!client) return; // the next poll says so, and counts it
    tracked.responding = true;
    try {
      const { keys, result } = await client.respond(task, tracked.answered);
      for (const key of keys) tracked.answered.add(key);
      if (result) this.end(tracked, { ...tracked.info, status: 'completed' }, toolResultOf(result));
    } catch (error) {
      if (task.inputRequests === undefined || this.closed) return;
      await client.cancel(task.taskId).catch(() => undefined);
      this.end(
        tracked,
        { ...tracked.info, status: 'cancelled' },
        errorResult(`the task ${task.taskId} asked for input the agent could not give (${errorMessage(error)}); it was cancelled`),
      );
    } finally {
      tracked.responding = false;
    }
  }

  /** Fetches an ended task's result: a completed call's result, a failed one's error, a cancelled one's note. */
  private async finish(tracked: Tracked, task: McpTask): Promise<void> {
    const info = { ...tracked.info, status: task.status };
    if (task.status === 'cancelled') return this.end(tracked, info, errorResult(`the task ${task.taskId} was cancelled by its server`));
    const client = tracked.client();
    try {
      if (!client) throw new Error(`MCP server "${tracked.info.server}" is not connected`);
      this.end(tracked, info, toolResultOf(await client.result(task.taskId, task)));
    } catch (error) {
      this.end(tracked, info, errorResult(`${tracked.info.tool} failed: ${errorMessage(error)}`));
    }
  }

  private end(tracked: Tracked, info: BackgroundTask, result: ToolResult): void {
    if (this.closed || !this.tasks.delete(key(info.server, info.taskId))) return;
    tracked.ending = true;
    clearTimeout(tracked.timer);
    this.ended.push({ task: info, result });
    try {
      this.sink?.publish({
        id: `task-${(this.events += 1)}`,
        server: info.server,
        type: `task.${info.status}`,
        method: 'notifications/tasks/status',
        summary: { data: JSON.stringify({ taskId: info.taskId, tool: info.tool, status: info.status }) },
        receivedAt: new Date().toISOString(),
      });
    } catch (error) {
      this.warn(`the end of task ${info.taskId} could not be told on the rewake path: ${errorMessage(error)}`);
    }
    this.wake();
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const waiter of waiters) waiter();
  }
}

function key(server: string, taskId: string): string {
  return `${server}\u0000${taskId}`;
}

function message(task: McpTask): { statusMessage?: string } {
  return task.statusMessage === undefined ? {} : { statusMessage: printableName(task.statusMessage) };
}
