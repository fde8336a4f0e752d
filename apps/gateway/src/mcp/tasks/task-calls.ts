import { jsonRpcError, JsonRpcErrorCode, McpMetaKey, missingRequiredClientCapability, type RequestId } from '@toolmesh/protocol';
import type { ToolDefinition } from '@toolmesh/registry';
import type { RequestContext } from '@toolmesh/transport-http/server';

import { callerKey } from '../../auth/caller-key';
import type { TaskView } from '../../call/task-record';
import type { TaskWish } from '../../execution/tasks/long-calls';
import { legacyTask, modernTask, TASKS_EXTENSION } from '../../task-state/task-wire';
import type { HandlerResult } from '../handlers/method-handler';
import { errorOutcome, resultOutcome } from '../outcomes';

/**
 * What an era adds to `tools/call` for a tool declared long-running (issue 47): whether the caller asked for
 * a task (or must have), and how a task created is answered.
 */
export interface TasksCallEra {
  wish(
    tool: ToolDefinition,
    params: Record<string, unknown>,
    context: RequestContext,
    id: RequestId,
  ): TaskWish | { refused: HandlerResult } | undefined;
  created(id: RequestId, task: TaskView): HandlerResult;
}

/** Whose tasks a request may see: its verified caller's, or with no authentication everybody's (`-`). */
export function taskOwner(context: RequestContext): string {
  return context.caller === undefined ? '-' : callerKey(context.caller);
}

/**
 * 2026-07-28 (SEP-2663): a caller that declares the extension on the request may get a task (the server
 * decides: whenever the service answers 202); one that does not never does, and a tool whose tasks are
 * `required` is refused with -32021 naming the extension.
 */
export function modernTaskCalls(meta: Readonly<Record<string, unknown>>): TasksCallEra {
  return {
    wish: (tool, params, context, id) => {
      const capabilities = (params._meta as Record<string, { extensions?: Record<string, unknown> }> | undefined)?.[
        McpMetaKey.ClientCapabilities
      ];
      const declared = capabilities?.extensions?.[TASKS_EXTENSION];
      if (declared !== undefined) return { owner: taskOwner(context) };
      if (tool.task?.support !== 'required') return undefined;
      return { refused: { answered: errorOutcome(missingRequiredClientCapability(id, { extensions: { [TASKS_EXTENSION]: {} } }), 400) } };
    },
    created: (id, task) => ({ answered: resultOutcome(id, { resultType: 'task', ...modernTask(task), _meta: meta }) }),
  };
}

/**
 * 2025-11-25: the caller asks for a task with `params.task` (its `ttl` the TTL it wants); a tool whose tasks
 * are `required` called without it is refused with -32601, as that revision says.
 */
export const legacyTaskCalls: TasksCallEra = {
  wish: (tool, params, context, id) => {
    const task = params.task;
    if (typeof task === 'object' && task !== null && !Array.isArray(task)) {
      const { ttl } = task as { ttl?: unknown };
      return { owner: taskOwner(context), ...(typeof ttl === 'number' && { ttlMillis: ttl }) };
    }
    if (tool.task?.support !== 'required') return undefined;
    return {
      refused: jsonRpcError(
        id,
        JsonRpcErrorCode.MethodNotFound,
        `Tool ${tool.name} must be called as a task (its execution.taskSupport is "required"): add "task": {} to the params`,
      ),
    };
  },
  created: (_id, task) => ({ result: { task: legacyTask(task) } }),
};
