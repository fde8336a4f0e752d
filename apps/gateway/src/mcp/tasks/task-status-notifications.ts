import { missingRequiredClientCapability } from '@toolmesh/protocol';
import type { RequestContext } from '@toolmesh/transport-http/server';

import type { TaskRecord } from '../../call/task-record';
import type { TaskService } from '../../execution/tasks/task-service';
import { legacyTask, modernDetailedTask, TASKS_EXTENSION } from '../../task-state/task-wire';
import type { TaskStatusListener } from '../change-notifications/change-listeners';
import type { ListenedTasks } from '../era-2026/handlers/listen';
import { errorOutcome } from '../outcomes';
import { taskOwner } from './task-calls';
import type { TaskMethodDeps } from './task-methods';

/**
 * Status notifications of tasks (issue 47): a stream hears of its own caller's tasks only, each read from the
 * store when it changed (`TaskService.peek`, which never polls a job), so what is sent is what `tasks/get`
 * would answer then. A task the store cannot give now is not told: the client's polls say why.
 */

/** 2025-11-25: a GET stream gets `notifications/tasks/status` (a `Task`) for every task of its caller. */
export function legacyTaskStatus(serving: {
  readonly service: Pick<TaskService, 'peek'>;
}): (context: RequestContext, send: (message: string) => void) => TaskStatusListener {
  const deps = { tasks: serving.service };
  return (context, send) => {
    const owner = taskOwner(context);
    return {
      owner,
      statusChanged: (taskId) =>
        tell(deps, owner, taskId, (record) => notification('notifications/tasks/status', legacyTask(record)), send),
    };
  };
}

/**
 * 2026-07-28 (SEP-2663 "Task Status Notifications"): `subscriptions/listen` with `taskIds` is honoured for
 * the caller's own tasks among them (at most `maxTaskIds`), after the extension is declared (-32021 without),
 * and its stream gets `notifications/tasks`, the detailed task (result or error inline), tagged with the subscription.
 */
export function modernListenedTasks(deps: Pick<TaskMethodDeps, 'tasks' | 'shape'>, maxTaskIds: number): ListenedTasks {
  return {
    own: async (taskIds, context, id, envelope) => {
      const extensions = (envelope.clientCapabilities as { extensions?: Record<string, unknown> }).extensions;
      if (extensions?.[TASKS_EXTENSION] === undefined)
        return errorOutcome(missingRequiredClientCapability(id, { extensions: { [TASKS_EXTENSION]: {} } }), 400);
      const owner = taskOwner(context);
      const asked = [...new Set(taskIds.filter((taskId): taskId is string => typeof taskId === 'string' && taskId.length <= 256))];
      const found = await Promise.all(asked.slice(0, maxTaskIds).map((taskId) => deps.tasks.peek(taskId, owner).catch(() => undefined)));
      return found.flatMap((record) => (record === undefined ? [] : [record.taskId]));
    },
    listener: (context, taskIds, tag, send) => {
      const owner = taskOwner(context);
      return {
        owner,
        statusChanged: (taskId) => {
          if (taskIds.has(taskId))
            tell(
              deps,
              owner,
              taskId,
              (record) => notification('notifications/tasks', { ...modernDetailedTask(record, deps.shape), _meta: tag }),
              send,
            );
        },
      };
    },
  };
}

function tell(
  deps: { readonly tasks: Pick<TaskService, 'peek'> },
  owner: string,
  taskId: string,
  message: (record: TaskRecord) => string,
  send: (message: string) => void,
): void {
  void deps.tasks.peek(taskId, owner).then(
    (record) => record && send(message(record)),
    () => undefined,
  );
}

function notification(method: string, params: Record<string, unknown>): string {
  return JSON.stringify({ jsonrpc: '2.0', method, params });
}
