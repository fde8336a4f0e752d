import type { CallToolResult, ServerCapabilities, Tool } from '@modelcontextprotocol/client';
import { ProtocolError } from '@modelcontextprotocol/client';
import { McpMetaKey } from '@toolmesh/protocol';

import { McpClientError, McpClientErrorCode } from '../client-errors';
import { answerInputRequests } from '../input-requests';
import type { ServerRequestHandlers } from '../server-requests';
import {
  type McpTask,
  readTask,
  readTaskCall,
  readTaskList,
  readToolResult,
  type TaskCallOutcome,
  TASKS_EXTENSION,
  taskSupportOf,
} from './mcp-task';

const TASK_STATUS_NOTIFICATION = { legacy: 'notifications/tasks/status', modern: 'notifications/tasks' } as const;

/** What the task client needs of its connection. */
export interface TaskConnection {
  readonly serverName: string;
  readonly era: 'modern' | 'legacy';
  readonly capabilities: ServerCapabilities | undefined;
  readonly timeoutMs: number;
  /** A 2026-07-28 request's `_meta` envelope (protocol version, client info, client capabilities). */
  envelope(): Record<string, unknown>;
  /** The client's answers to the server's requests, which a 2026-07-28 task's `inputRequests` get too. */
  readonly serverRequests: ServerRequestHandlers;
  /** Sends a request past the SDK (direct-requests.ts). */
  request(method: string, params: Record<string, unknown>, signal?: AbortSignal): Promise<unknown>;
}

export interface TaskCallOptions {
  /** 2025-11-25: the lifetime asked for (`task.ttl`); the server may keep it shorter. */
  readonly ttlMs?: number;
  readonly signal?: AbortSignal;
}

/**
 * A server's tasks (see mcp-task.ts for the two eras): a `tools/call` as a task, its state, its result, its
 * cancellation, and (2025-11-25) the list. Whether a call may be a task follows each era's negotiation:
 * 2025-11-25 the server's `tasks.requests.tools.call` capability and the tool's `execution.taskSupport`;
 * 2026-07-28 the server's `io.modelcontextprotocol/tasks` extension, the server then deciding per call.
 */
export class TaskClient {
  constructor(private readonly connection: TaskConnection) {}

  /** Whether the server takes tasks at all (2025-11-25 a `tasks` capability, 2026-07-28 the extension). */
  get offered(): boolean {
    const capabilities = this.connection.capabilities as Record<string, unknown> | undefined;
    if (this.connection.era === 'legacy') return capabilities?.tasks !== undefined;
    return (capabilities?.extensions as Record<string, unknown> | undefined)?.[TASKS_EXTENSION] !== undefined;
  }

  /** Whether calls of this tool may be tasks here. */
  supports(tool: Pick<Tool, 'execution'>): boolean {
    if (this.connection.era === 'modern') return this.offered;
    const tasks = (this.connection.capabilities as Record<string, unknown> | undefined)?.tasks as
      { requests?: { tools?: { call?: unknown } } } | undefined;
    return tasks?.requests?.tools?.call !== undefined && taskSupportOf(tool) !== 'forbidden';
  }

  /** Whether `tasks/list` is offered (2025-11-25 with `tasks.list`; 2026-07-28 has none). */
  get canList(): boolean {
    const tasks = (this.connection.capabilities as { tasks?: { list?: unknown } } | undefined)?.tasks;
    return this.connection.era === 'legacy' && tasks?.list !== undefined;
  }

  /** `tools/call` asking for a task: the server may still answer with the result at once. */
  async callTool(name: string, args: Record<string, unknown>, options: TaskCallOptions = {}): Promise<TaskCallOutcome> {
    const params =
      this.connection.era === 'modern'
        ? { name, arguments: args, _meta: this.modernMeta() }
        : { name, arguments: args, task: options.ttlMs === undefined ? {} : { ttl: options.ttlMs } };
    const reply = await this.connection.request('tools/call', params, options.signal);
    return readTaskCall(this.connection.era, this.connection.serverName, reply);
  }

  /** `tasks/get`: the task's state (at 2026-07-28 with a terminal task's result or error). */
  async get(taskId: string, signal?: AbortSignal): Promise<McpTask> {
    const reply = await this.connection.request('tasks/get', this.params(taskId), signal);
    return readTask(this.connection.era, this.connection.serverName, 'tasks/get', reply);
  }

  /**
   * The result of a terminal task: 2025-11-25 `tasks/result` (a failed call's JSON-RPC error thrown as a
   * `ProtocolError`), 2026-07-28 from the `tasks/get` state given or fetched.
   */
  async result(taskId: string, known?: McpTask, signal?: AbortSignal): Promise<CallToolResult> {
    if (this.connection.era === 'legacy') {
      const reply = await this.connection.request('tasks/result', { taskId }, signal);
      return readToolResult(this.connection.serverName, 'tasks/result', reply);
    }
    const task = known?.result || known?.error ? known : await this.get(taskId, signal);
    if (task.error) throw new ProtocolError(task.error.code, task.error.message, task.error.data);
    if (task.result) return task.result;
    throw new McpClientError(
      McpClientErrorCode.TasksUnsupported,
      `task ${taskId} of MCP server "${this.connection.serverName}" is ${task.status}, so it has no result`,
    );
  }

  /** `tasks/cancel`: 2025-11-25 answers with the task (cancelled), 2026-07-28 with an acknowledgement only. */
  async cancel(taskId: string, signal?: AbortSignal): Promise<McpTask | undefined> {
    const reply = await this.connection.request('tasks/cancel', this.params(taskId), signal);
    if (this.connection.era === 'modern') return undefined;
    return readTask('legacy', this.connection.serverName, 'tasks/cancel', reply);
  }

  /**
   * Gives an `input_required` task what it waits for, skipping the keys in `answered` (a server repeats a
   * request until it has its answer, SEP-2663 "Task Update Requests"): 2026-07-28 answers its `inputRequests`
   * through the client's handlers (the same as a call's own, so a form is asked as any other) and sends them
   * with one `tasks/update`; 2025-11-25 opens `tasks/result`, on whose stream the server sends its requests
   * to the same handlers, and which then resolves with the call's result (returned). Returns the keys answered.
   */
  async respond(
    task: McpTask,
    answered: ReadonlySet<string>,
    signal?: AbortSignal,
  ): Promise<{ readonly keys: readonly string[]; readonly result?: CallToolResult }> {
    if (this.connection.era === 'legacy') return { keys: [], result: await this.result(task.taskId, task, signal) };
    const outstanding = Object.fromEntries(Object.entries(task.inputRequests ?? {}).filter(([key]) => !answered.has(key)));
    const keys = Object.keys(outstanding);
    if (keys.length === 0) return { keys };
    const inputResponses = await answerInputRequests(this.connection.serverRequests, outstanding, signal ?? new AbortController().signal);
    await this.connection.request('tasks/update', { ...this.params(task.taskId), inputResponses }, signal);
    return { keys };
  }

  /** `tasks/list`, one page (2025-11-25 servers that offer it). */
  async list(cursor?: string, signal?: AbortSignal): Promise<{ tasks: McpTask[]; nextCursor?: string }> {
    if (!this.canList)
      throw new McpClientError(
        McpClientErrorCode.TasksUnsupported,
        this.connection.era === 'modern'
          ? `MCP server "${this.connection.serverName}" speaks 2026-07-28, whose Tasks extension has no tasks/list; a task is followed by its id`
          : `MCP server "${this.connection.serverName}" does not offer tasks/list (no tasks.list capability)`,
      );
    const reply = await this.connection.request('tasks/list', cursor === undefined ? {} : { cursor }, signal);
    return readTaskList(this.connection.serverName, reply);
  }

  /**
   * The task a status notification of this era tells of (2025-11-25 `notifications/tasks/status`, 2026-07-28
   * `notifications/tasks`), or undefined for any other notification; a malformed one throws `client.task_reply_invalid`.
   */
  statusOf(notification: { readonly method: string; readonly params?: unknown }): McpTask | undefined {
    if (notification.method !== TASK_STATUS_NOTIFICATION[this.connection.era]) return undefined;
    return readTask(this.connection.era, this.connection.serverName, notification.method, notification.params);
  }

  /** A task method's params: the id, and at 2026-07-28 the per-request envelope that declares the extension. */
  private params(taskId: string): Record<string, unknown> {
    return this.connection.era === 'modern' ? { taskId, _meta: this.modernMeta() } : { taskId };
  }

  private modernMeta(): Record<string, unknown> {
    const envelope = this.connection.envelope();
    const capabilities = (envelope[McpMetaKey.ClientCapabilities] ?? {}) as Record<string, unknown>;
    const extensions = (capabilities.extensions ?? {}) as Record<string, unknown>;
    return {
      ...envelope,
      [McpMetaKey.ClientCapabilities]: { ...capabilities, extensions: { ...extensions, [TASKS_EXTENSION]: {} } },
    };
  }
}
