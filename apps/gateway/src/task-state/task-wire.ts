import type { TaskView } from '../call/task-record';
import type { ForwardedToolResult, GatewayCallToolResult } from '../call/tool-call-outcome';

/** The Tasks extension's identifier (SEP-2663), declared under `extensions` at 2026-07-28. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';
/** 2025-11-25: the `_meta` key that ties a `tasks/result` to its task. */
export const RELATED_TASK_META = 'io.modelcontextprotocol/related-task';

/** The methods of tasks, in both eras. */
export const TasksMethod = {
  Get: 'tasks/get',
  Cancel: 'tasks/cancel',
  List: 'tasks/list',
  Result: 'tasks/result',
  Update: 'tasks/update',
} as const;

/** A result as the era's shaping makes it (output budget, the 2025 wrapping of `structuredContent`). */
export type ShapeResult = (record: Pick<TaskView, 'tool'>, result: GatewayCallToolResult | ForwardedToolResult) => object;

/** 2026-07-28 (SEP-2663) `Task`: `ttlMs` and `pollIntervalMs`. */
export function modernTask(record: TaskView): Record<string, unknown> {
  return {
    taskId: record.taskId,
    status: record.status,
    ...(record.statusMessage !== undefined && { statusMessage: record.statusMessage }),
    createdAt: new Date(record.createdAt).toISOString(),
    lastUpdatedAt: new Date(record.lastUpdatedAt).toISOString(),
    ttlMs: record.ttlMs,
    pollIntervalMs: record.pollIntervalMs,
  };
}

/** SEP-2663 `DetailedTask`: the task with its result (`completed`) or its JSON-RPC error (`failed`) inlined. */
export function modernDetailedTask(record: TaskView, shape: ShapeResult): Record<string, unknown> {
  return {
    ...modernTask(record),
    ...(record.status === 'completed' && record.result !== undefined && { result: shape(record, record.result) }),
    ...(record.status === 'failed' && record.error !== undefined && { error: record.error }),
  };
}

/**
 * 2025-11-25 `Task`: `ttl` and `pollInterval`; a tool call whose result is an error is a `failed` task in
 * that revision (its `tasks/result` still gives the result), where SEP-2663 keeps it `completed`.
 */
export function legacyTask(record: TaskView): Record<string, unknown> {
  const toolError = record.status === 'completed' && record.result?.isError === true;
  return {
    taskId: record.taskId,
    status: toolError ? 'failed' : record.status,
    ...(record.statusMessage !== undefined && { statusMessage: record.statusMessage }),
    ...(toolError && record.statusMessage === undefined && { statusMessage: 'The tool reported an error; tasks/result gives its result.' }),
    createdAt: new Date(record.createdAt).toISOString(),
    lastUpdatedAt: new Date(record.lastUpdatedAt).toISOString(),
    ttl: record.ttlMs,
    pollInterval: record.pollIntervalMs,
  };
}
