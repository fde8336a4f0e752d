import { setTimeout as sleep } from 'node:timers/promises';

import type { CallToolResult, McpTask, TaskCallOutcome, TaskClient } from '@toolmesh/mcp-client';

import type { RequestStateSeal } from '../call/request-state-seal';
import { isTerminalStatus, type TaskView } from '../call/task-record';
import type { ForwardedToolResult } from '../call/tool-call-outcome';
import type { TaskSettings } from '../config/task-settings';
import type { McpUpstreams } from './mcp-upstreams';
import type { UpstreamConnection } from './upstream-connection';

/** The seal's associated data for a task id: tool names have no spaces, so no call's sealed state opens as one. */
const SEALED_FOR = 'task of an MCP server';

/** What a federated task's id carries inside its seal: the bundle's route, the server's own task id, our tool's name. */
interface Inside {
  readonly route: string;
  readonly taskId: string;
  readonly tool: string;
}

/** A federated task found for its caller: where it lives and what the caller calls it. */
export interface FederatedTask extends Inside {
  readonly sealedId: string;
  readonly connection: UpstreamConnection;
}

/**
 * How a task-augmented call of an MCP server's tool ended: a task, or the server's result at once; undefined
 * when it is to be forwarded as a plain call: the server offers no tasks, or asks for input before it starts one.
 */
type FederatedCall = { readonly task: TaskView } | { readonly result: CallToolResult } | undefined;

/**
 * MCP servers' tasks relayed (issue 47; ADR 0028, "Addendum: MCP servers' tasks"): a task-augmented call of
 * a federated tool becomes the server's task, and our caller gets an id that is the seal of the bundle, the
 * server's task id and the caller's owner key: any replica opens it (the key is `mcp.requestStateKey`), no
 * record is kept, and another caller's request opens nothing. Requests go through the bundle's connection,
 * its `TaskClient` speaking the server's era.
 */
export class FederatedTasks {
  constructor(
    private readonly upstreams: McpUpstreams,
    /** Sealing with `mcp.tasks.maxTtlMillis` as its lifetime: no server's task is followed longer than the gateway's own. */
    private readonly ids: RequestStateSeal,
    private readonly settings: Pick<TaskSettings, 'maxTtlMillis' | 'poll'>,
    /** How long one request to a server may take (`mcp.maxToolTimeoutMillis`). */
    private readonly timeoutMillis: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Whether an id is one of these: a REST task's id is bare base64url, a seal starts `v2.`. */
  static owns(taskId: string): boolean {
    return taskId.includes('.');
  }

  /**
   * The call as a task where the server offers tasks (undefined where it does not: the call is then
   * forwarded as any other); the server may still answer with its result at once.
   */
  async call(
    route: string,
    tool: string,
    upstreamTool: string,
    args: Record<string, unknown>,
    owner: string,
    ttlMs?: number,
  ): Promise<FederatedCall> {
    const connection = await this.upstreams.connection(route);
    if (connection === undefined) return undefined;
    const outcome = await connection.tasks<TaskCallOutcome | undefined>('tools/call', this.timeoutMillis, (tasks) =>
      tasks.offered ? tasks.callTool(upstreamTool, args, ttlMs === undefined ? {} : { ttlMs }) : Promise.resolve(undefined),
    );
    // Input asked for before a task starts (a 2026-07-28 MRTR round) is relayed as a plain call's is.
    if (outcome === undefined || outcome.kind === 'input_required') return undefined;
    if (outcome.kind === 'result') return { result: outcome.result };
    const sealedId = this.ids.seal(
      { target: SEALED_FOR, principal: owner, request: '' },
      JSON.stringify({ route, taskId: outcome.task.taskId, tool }),
    );
    return { task: this.view(sealedId, tool, outcome.task) };
  }

  /** The caller's task of that id, or undefined: not sealed here, expired, another caller's, or its server gone from the configuration. */
  async find(sealedId: string, owner: string): Promise<FederatedTask | undefined> {
    const opened = this.ids.open({ target: SEALED_FOR, principal: owner, request: '' }, sealedId);
    if (!('state' in opened)) return undefined;
    const inside = JSON.parse(opened.state) as Inside;
    const connection = await this.upstreams.connection(inside.route);
    return connection && { ...inside, sealedId, connection };
  }

  /**
   * `tasks/get` at the server: the task under our id, with its result or error once it ended, as a 2026-07-28
   * server inlines them (a 2025-11-25 server's are fetched with `tasks/result`, which an ended task answers at once).
   */
  get(task: FederatedTask): Promise<TaskView> {
    return task.connection
      .tasks('tasks/get', this.timeoutMillis, (tasks) => this.withEnd(tasks, task.taskId))
      .then((got) => this.view(task.sealedId, task.tool, got));
  }

  /**
   * The task's result once it ended, polled for until `until` (a `performance.now()` time): undefined when it
   * still works then, or was cancelled; a failed call's JSON-RPC error is thrown as the server's.
   */
  async result(task: FederatedTask, until: number): Promise<CallToolResult | undefined> {
    for (;;) {
      const got = await this.get(task);
      if (got.error !== undefined) throw Object.assign(new Error(got.error.message), { code: got.error.code });
      if (got.result !== undefined) return got.result as CallToolResult;
      if (got.status === 'cancelled' || performance.now() + got.pollIntervalMs > until) return undefined;
      await sleep(got.pollIntervalMs, undefined, { ref: false });
    }
  }

  /** The server's task, its end (result or error) read in if it ended without one. */
  private async withEnd(tasks: TaskClient, taskId: string): Promise<McpTask> {
    const got = await tasks.get(taskId);
    if (!isTerminalStatus(got.status) || got.status === 'cancelled' || got.result !== undefined || got.error !== undefined) return got;
    try {
      // A 2025-11-25 tool error is a `failed` task with a result: SEP-2663 keeps it `completed`, as the wire shapes expect.
      return { ...got, status: 'completed', result: await tasks.result(taskId, got) };
    } catch (error) {
      const { code, message } = error as { code?: unknown; message?: unknown };
      if (typeof code !== 'number') throw error;
      return { ...got, status: 'failed', error: { code, message: String(message) } };
    }
  }

  /** `tasks/cancel` at the server: the task cancelled (2025-11-25), or undefined where the era only acknowledges. */
  cancel(task: FederatedTask): Promise<TaskView | undefined> {
    return task.connection
      .tasks('tasks/cancel', this.timeoutMillis, (tasks) => tasks.cancel(task.taskId))
      .then((cancelled) => cancelled && this.view(task.sealedId, task.tool, cancelled));
  }

  /** The server's task as ours: our id in place of its, the times as numbers the wire shapes write back. */
  private view(sealedId: string, tool: string, task: McpTask): TaskView {
    const now = this.now();
    const createdAt = task.createdAt === undefined ? now : Date.parse(task.createdAt) || now;
    return {
      taskId: sealedId,
      tool,
      status: task.status,
      ...(task.statusMessage !== undefined && { statusMessage: task.statusMessage }),
      createdAt,
      lastUpdatedAt: task.lastUpdatedAt === undefined ? now : Date.parse(task.lastUpdatedAt) || now,
      ttlMs: task.ttlMs ?? this.settings.maxTtlMillis,
      pollIntervalMs: task.pollIntervalMs ?? this.settings.poll.defaultMillis,
      ...(task.result !== undefined && { result: task.result as ForwardedToolResult }),
      ...(task.error !== undefined && { error: { code: task.error.code, message: task.error.message } }),
    };
  }
}
