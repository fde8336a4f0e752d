import type { ForwardedToolResult, GatewayCallToolResult, ReplyForm } from './tool-call-outcome';

/** MCP's task statuses (both eras); `input_required` is never reached by a REST job. */
export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/** A JSON-RPC error a task ended with: what `tools/call` would have answered had it waited. */
export interface TaskError {
  readonly code: number;
  readonly message: string;
}

/**
 * One task as every replica sees it (in Redis, or in memory for one replica): what is needed to advance it
 * and to answer for it, and nothing secret: no header, token or argument is kept, only the status URL the
 * service gave and the caller's opaque key (auth/caller-key.ts).
 */
export interface TaskRecord {
  readonly taskId: string;
  /** The caller it belongs to (`callerKey`), or `-` when the gateway authenticates nobody. */
  readonly owner: string;
  readonly tool: string;
  /** Where the job's status is read (the 202's `Location`, made absolute and checked against the tool's origin). */
  readonly statusUrl: string;
  readonly cancel: 'delete' | 'none';
  /** How the job's final reply reads: a manifest tool's `data` envelope, or an OpenAPI operation's plain body. */
  readonly form: ReplyForm;
  readonly status: TaskStatus;
  readonly statusMessage?: string;
  /** Epoch milliseconds. */
  readonly createdAt: number;
  readonly lastUpdatedAt: number;
  readonly ttlMs: number;
  /** What clients are told to wait between polls: the service's Retry-After, within the configured bounds. */
  readonly pollIntervalMs: number;
  /** When the status URL may be read next (epoch milliseconds). */
  readonly nextPollAt: number;
  /** Status reads in a row that got no answer; past `mcp.tasks.maxFailedPolls` the task fails. */
  readonly failedPolls: number;
  /** The final result (`completed`). */
  readonly result?: GatewayCallToolResult;
  /** The JSON-RPC error (`failed`). */
  readonly error?: TaskError;
}

/**
 * A task as the `tasks/*` answers show it: a REST task's record, or an MCP server's task under the gateway's
 * sealed id (upstreams/federated-tasks.ts), whose result is the server's own.
 */
export type TaskView = Pick<
  TaskRecord,
  'taskId' | 'tool' | 'status' | 'statusMessage' | 'createdAt' | 'lastUpdatedAt' | 'ttlMs' | 'pollIntervalMs' | 'error'
> & {
  readonly result?: GatewayCallToolResult | ForwardedToolResult;
};

const TERMINAL: ReadonlySet<TaskStatus> = new Set(['completed', 'failed', 'cancelled']);

/** `completed`, `failed` and `cancelled`: a task in one of them, ours or an MCP server's, never changes again. */
export function isTerminalStatus(status: TaskStatus): boolean {
  return TERMINAL.has(status);
}

export function isTerminal(record: TaskRecord): boolean {
  return isTerminalStatus(record.status);
}

/** When the record may be deleted: its TTL after creation. */
export function expiresAt(record: TaskRecord): number {
  return record.createdAt + record.ttlMs;
}

/** The record ended: its result, or its error, kept until the TTL. */
export function ended(record: TaskRecord, now: number, end: { result: GatewayCallToolResult } | { error: TaskError }): TaskRecord {
  return 'result' in end
    ? { ...record, status: 'completed', result: end.result, lastUpdatedAt: now, failedPolls: 0 }
    : { ...record, status: 'failed', error: end.error, statusMessage: end.error.message, lastUpdatedAt: now };
}
