import type { CallToolResult, Tool } from '@modelcontextprotocol/client';

import { McpClientError, McpClientErrorCode } from '../client-errors';
import type { InputRequest } from '../input-requests';

/**
 * MCP Tasks as the client reads them in both eras: 2025-11-25's experimental `tasks` utility
 * (basic/utilities/tasks.mdx: `params.task`, `{ task }`, `ttl`/`pollInterval`, `tasks/result`, `tasks/list`)
 * and 2026-07-28's Tasks extension (SEP-2663: `resultType: "task"`, flat `ttlMs`/`pollIntervalMs`, the
 * terminal result or error inline in `tasks/get`, no `tasks/result` nor `tasks/list`). Each era's reply is
 * checked here and turned into one shape; anything else is `client.task_reply_invalid`, never a crash.
 */

/** The extension's identifier (SEP-2663), in capabilities and in each request's client capabilities. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

const STATUSES: ReadonlySet<string> = new Set<TaskStatus>(['working', 'input_required', 'completed', 'failed', 'cancelled']);

/** `completed`, `failed` and `cancelled`: a task in one of them never changes again. */
export function isTerminal(status: TaskStatus): boolean {
  return status === 'completed' || status === 'failed' || status === 'cancelled';
}

/** One task's state, the same for both eras (2025's `ttl`/`pollInterval` read as `ttlMs`/`pollIntervalMs`). */
export interface McpTask {
  readonly taskId: string;
  readonly status: TaskStatus;
  readonly statusMessage?: string;
  readonly createdAt?: string;
  readonly lastUpdatedAt?: string;
  /** Milliseconds from creation the server keeps the task; null: unlimited. */
  readonly ttlMs?: number | null;
  /** How often the server asks to be polled, in milliseconds. */
  readonly pollIntervalMs?: number;
  /** 2026-07-28 only: a completed task's result, inline in `tasks/get` and `notifications/tasks`. */
  readonly result?: CallToolResult;
  /** 2026-07-28 only: a failed task's JSON-RPC error. */
  readonly error?: { readonly code: number; readonly message: string; readonly data?: unknown };
  /** 2026-07-28 only: what an `input_required` task waits for, keyed by the server (answered with `tasks/update`). */
  readonly inputRequests?: Readonly<Record<string, InputRequest>>;
}

/** A tool's `execution.taskSupport` (2025-11-25): absent means `forbidden`. */
export type TaskSupport = 'forbidden' | 'optional' | 'required';

export function taskSupportOf(tool: Pick<Tool, 'execution'>): TaskSupport {
  const support = (tool.execution as { taskSupport?: unknown } | undefined)?.taskSupport;
  return support === 'optional' || support === 'required' ? support : 'forbidden';
}

/** What a task-augmented `tools/call` came back with: a task, the result at once, or (2026-07-28) a request for input first. */
export type TaskCallOutcome =
  | { readonly kind: 'task'; readonly task: McpTask }
  | { readonly kind: 'result'; readonly result: CallToolResult }
  | { readonly kind: 'input_required' };

type Era = 'modern' | 'legacy';

/** The reply to a task-augmented `tools/call`. */
export function readTaskCall(era: Era, server: string, raw: unknown): TaskCallOutcome {
  const reply = object(raw, server, 'tools/call');
  if (era === 'modern') {
    if (reply.resultType === 'task') return { kind: 'task', task: readTask(era, server, 'tools/call', reply) };
    if (reply.resultType === 'input_required') return { kind: 'input_required' };
    return { kind: 'result', result: readToolResult(server, 'tools/call', reply) };
  }
  // A 2025 server that does not take the augmentation processes the call normally (spec: "MUST process ... normally").
  if (reply.task !== undefined)
    return { kind: 'task', task: readTask(era, server, 'tools/call', object(reply.task, server, 'tools/call')) };
  return { kind: 'result', result: readToolResult(server, 'tools/call', reply) };
}

/** A `Task` of `tasks/get`, `tasks/cancel` (2025), `tasks/list`'s entries or a status notification. */
export function readTask(era: Era, server: string, method: string, raw: unknown): McpTask {
  const reply = object(raw, server, method);
  const { taskId, status, statusMessage, createdAt, lastUpdatedAt } = reply;
  if (typeof taskId !== 'string' || taskId === '') throw invalid(server, method, 'no taskId string');
  if (typeof status !== 'string' || !STATUSES.has(status)) throw invalid(server, method, 'a status that is none of the five');
  const ttl = era === 'modern' ? reply.ttlMs : reply.ttl;
  const poll = era === 'modern' ? reply.pollIntervalMs : reply.pollInterval;
  if (ttl !== undefined && ttl !== null && !isCount(ttl)) throw invalid(server, method, 'a ttl that is not a count of milliseconds');
  if (poll !== undefined && !isCount(poll)) throw invalid(server, method, 'a poll interval that is not a count of milliseconds');
  const task: McpTask = {
    taskId,
    status: status as TaskStatus,
    ...(typeof statusMessage === 'string' && { statusMessage }),
    ...(typeof createdAt === 'string' && { createdAt }),
    ...(typeof lastUpdatedAt === 'string' && { lastUpdatedAt }),
    ...(ttl !== undefined && { ttlMs: ttl as number | null }),
    ...(poll !== undefined && { pollIntervalMs: poll as number }),
  };
  if (era !== 'modern') return task;
  if (status === 'completed') return { ...task, result: readToolResult(server, method, object(reply.result, server, method)) };
  if (status === 'failed') return { ...task, error: readError(server, method, reply.error) };
  if (status === 'input_required') return { ...task, inputRequests: readInputRequests(server, method, reply.inputRequests) };
  return task;
}

/** A `tasks/list` page (2025-11-25 only). */
export function readTaskList(server: string, raw: unknown): { tasks: McpTask[]; nextCursor?: string } {
  const reply = object(raw, server, 'tasks/list');
  if (!Array.isArray(reply.tasks)) throw invalid(server, 'tasks/list', 'no tasks array');
  const tasks = reply.tasks.map((task) => readTask('legacy', server, 'tasks/list', task));
  return typeof reply.nextCursor === 'string' ? { tasks, nextCursor: reply.nextCursor } : { tasks };
}

/** A `CallToolResult` (a 2025 `tasks/result`, a 2026 completed task's `result`): a content array is all it is held to. */
export function readToolResult(server: string, method: string, raw: unknown): CallToolResult {
  const result = object(raw, server, method);
  if (!Array.isArray(result.content)) throw invalid(server, method, 'a tool result without a content array');
  return result as unknown as CallToolResult;
}

function readError(server: string, method: string, raw: unknown): NonNullable<McpTask['error']> {
  const error = object(raw, server, method);
  if (typeof error.code !== 'number' || typeof error.message !== 'string')
    throw invalid(server, method, 'a failed task without a JSON-RPC error');
  return { code: error.code, message: error.message, ...(error.data !== undefined && { data: error.data }) };
}

/** An `input_required` task's requests: each an object with a method (its params, if any, an object). */
function readInputRequests(server: string, method: string, raw: unknown): Record<string, InputRequest> {
  const requests = object(raw, server, method);
  for (const request of Object.values(requests)) {
    const { method: asked, params } = object(request, server, method);
    if (typeof asked !== 'string') throw invalid(server, method, 'an input request without a method');
    if (params !== undefined) object(params, server, method);
  }
  return requests as Record<string, InputRequest>;
}

function object(raw: unknown, server: string, method: string): Record<string, unknown> {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw invalid(server, method, 'not an object');
  return raw as Record<string, unknown>;
}

function isCount(value: unknown): boolean {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}

function invalid(server: string, method: string, what: string): McpClientError {
  return new McpClientError(
    McpClientErrorCode.TaskReplyInvalid,
    `MCP server "${server}" answered ${method} with ${what}, which the Tasks specification does not allow; the task cannot be followed (report it to the server's authors)`,
  );
}
