import { invalidParams, jsonRpcError, JsonRpcErrorCode, missingRequiredClientCapability, type RequestId } from '@toolmesh/protocol';
import type { DispatchOutcome, RequestContext } from '@toolmesh/transport-http/server';

import type { TaskRecord } from '../../call/task-record';
import type { StatusHeaders, TaskService } from '../../execution/tasks/task-service';
import {
  legacyTask,
  modernDetailedTask,
  RELATED_TASK_META,
  type ShapeResult,
  TASKS_EXTENSION,
  TasksMethod,
} from '../../task-state/task-wire';
import type { FederatedTasks } from '../../upstreams/federated-tasks';
import { passedOn } from '../../upstreams/forward-tool-call';
import type { ModernRequestHandler } from '../era-2026/era-2026';
import type { HandlerResult, RequestHandler } from '../handlers/method-handler';
import { errorOutcome, resultOutcome } from '../outcomes';
import { type FederatedAct, onFederated } from './federated-task-methods';
import { taskOwner } from './task-calls';

/** What the `tasks/*` handlers need: the tasks, the headers a status read made for a request carries, the era's result shaping. */
export interface TaskMethodDeps {
  readonly tasks: TaskService;
  readonly headersFor: (context: RequestContext) => StatusHeaders;
  readonly shape: ShapeResult;
  /** MCP servers' tasks under sealed ids (issue 47), when MCP server bundles are configured. */
  readonly federated?: FederatedTasks;
}

/** Margin kept before a request's deadline by `tasks/result`, to answer in time that the task still works. */
const ANSWER_MARGIN_MILLIS = 500;

/** One answer for a task that is not there, expired or another caller's: ids cannot be probed (spec: -32602). */
const NOT_FOUND = 'Task not found: no such task of this caller, or it has expired (its ttl has passed)';

/** The longest task id read: a gateway's own is 24 characters, an MCP server's task sealed (upstreams/federated-tasks.ts) some 350. */
const MAX_TASK_ID = 1024;

function taskIdOf(params: Record<string, unknown>): string | undefined {
  const { taskId } = params;
  return typeof taskId === 'string' && taskId.length > 0 && taskId.length <= MAX_TASK_ID ? taskId : undefined;
}

/**
 * 2026-07-28 (SEP-2663): `tasks/get` (the result or error inlined once the task ended), `tasks/cancel` and
 * `tasks/update` (acknowledged: a REST job never asks for input), each refused with -32021 for a request
 * that does not declare the extension. `tasks/result` and `tasks/list` are not methods of this revision.
 */
export function modernTaskMethods(deps: TaskMethodDeps, meta: Readonly<Record<string, unknown>>): Array<[string, ModernRequestHandler]> {
  const complete = { resultType: 'complete', _meta: meta };
  const withTask =
    (
      answer: (record: TaskRecord, id: RequestId) => DispatchOutcome,
      act: (taskId: string, owner: string, headers: StatusHeaders) => Promise<TaskRecord | 'terminal' | undefined>,
      relay: (id: RequestId) => FederatedAct<DispatchOutcome>,
    ): ModernRequestHandler =>
    async (params, context, id, envelope) => {
      const extensions = (envelope.clientCapabilities as { extensions?: Record<string, unknown> }).extensions;
      if (extensions?.[TASKS_EXTENSION] === undefined)
        return errorOutcome(missingRequiredClientCapability(id, { extensions: { [TASKS_EXTENSION]: {} } }), 400);
      const taskId = taskIdOf(params);
      if (taskId === undefined) return errorOutcome(invalidParams(id, '"taskId" must be a non-empty string'));
      const federated = await onFederated(deps.federated, taskId, taskOwner(context), id, relay(id));
      if (federated !== undefined)
        return 'answer' in federated
          ? federated.answer
          : errorOutcome('error' in federated ? federated.error : invalidParams(id, NOT_FOUND));
      const found = await act(taskId, taskOwner(context), deps.headersFor(context));
      if (found === undefined) return errorOutcome(invalidParams(id, NOT_FOUND));
      // A cancel of an ended task is acknowledged as any other (SEP-2663: cancellation is cooperative).
      return found === 'terminal' ? resultOutcome(id, {}, complete) : answer(found, id);
    };
  const acknowledged = (_record: TaskRecord, id: RequestId) => resultOutcome(id, {}, complete);
  return [
    [
      TasksMethod.Get,
      withTask(
        (record, id) => resultOutcome(id, modernDetailedTask(record, deps.shape), complete),
        (taskId, owner, headers) => deps.tasks.view(taskId, owner, headers),
        (id) => async (federated, task) => resultOutcome(id, modernDetailedTask(await federated.get(task), deps.shape), complete),
      ),
    ],
    [
      TasksMethod.Cancel,
      withTask(
        acknowledged,
        (taskId, owner, headers) => deps.tasks.cancel(taskId, owner, headers),
        (id) => async (federated, task) => {
          await federated.cancel(task);
          return resultOutcome(id, {}, complete);
        },
      ),
    ],
    // Nothing is ever asked of the client: every response is for a request not outstanding, ignored as SEP-2663 says.
    // So for an MCP server's task too: its input requests are not relayed yet (never shown), so none is outstanding.
    [
      TasksMethod.Update,
      withTask(
        acknowledged,
        (taskId, owner, headers) => deps.tasks.view(taskId, owner, headers),
        (id) => () => Promise.resolve(resultOutcome(id, {}, complete)),
      ),
    ],
  ];
}

/**
 * 2025-11-25 (the experimental `tasks` utility): `tasks/get`, `tasks/result` (waits for the end, within the
 * request's deadline), `tasks/cancel` (-32602 for an ended task) and, where callers are authenticated,
 * `tasks/list` of the caller's own tasks.
 */
export function legacyTaskMethods(deps: TaskMethodDeps, withList: boolean): Array<[string, RequestHandler]> {
  const { tasks, headersFor, shape } = deps;
  const withTask =
    (
      act: (taskId: string, context: RequestContext, id: RequestId) => Promise<HandlerResult>,
      relay: (id: RequestId, context: RequestContext) => FederatedAct<HandlerResult>,
    ): RequestHandler =>
    async (params, context, id) => {
      const taskId = taskIdOf(params);
      if (taskId === undefined) return invalidParams(id, '"taskId" must be a non-empty string');
      const federated = await onFederated(deps.federated, taskId, taskOwner(context), id, relay(id, context));
      if (federated === undefined) return act(taskId, context, id);
      return 'answer' in federated ? federated.answer : 'error' in federated ? federated.error : invalidParams(id, NOT_FOUND);
    };
  const methods: Array<[string, RequestHandler]> = [
    [
      TasksMethod.Get,
      withTask(async (taskId, context, id) => {
        const record = await tasks.view(taskId, taskOwner(context), headersFor(context));
        return record === undefined ? invalidParams(id, NOT_FOUND) : { result: legacyTask(record) };
      }, legacyGet),
    ],
    [
      TasksMethod.Result,
      withTask(async (taskId, context, id) => {
        const record = await tasks.settled(taskId, taskOwner(context), headersFor(context), context.deadline - ANSWER_MARGIN_MILLIS);
        if (record === undefined) return invalidParams(id, NOT_FOUND);
        const related = { [RELATED_TASK_META]: { taskId } };
        switch (record.status) {
          case 'completed': {
            const result = shape(
              record,
              record.result ?? { content: [{ type: 'text', text: '', _meta: { searchTime: 0 } }], isError: false },
            );
            return { result: { ...result, _meta: { ...(result as { _meta?: object })._meta, ...related } } };
          }
          case 'failed':
            return jsonRpcError(id, record.error?.code ?? JsonRpcErrorCode.InternalError, record.error?.message ?? 'The task failed', {
              _meta: related,
            });
          case 'cancelled':
            return jsonRpcError(id, JsonRpcErrorCode.InternalError, `Task ${taskId} was cancelled before it completed: it has no result`);
          default:
            return jsonRpcError(
              id,
              JsonRpcErrorCode.InternalError,
              `Task ${taskId} is still working at this request's deadline: call tasks/result again, or poll tasks/get`,
            );
        }
      }, legacyResult(shape)),
    ],
    [
      TasksMethod.Cancel,
      withTask(async (taskId, context, id) => {
        const cancelled = await tasks.cancel(taskId, taskOwner(context), headersFor(context));
        if (cancelled === undefined) return invalidParams(id, NOT_FOUND);
        if (cancelled === 'terminal') return invalidParams(id, `Cannot cancel task ${taskId}: it has already ended`);
        return { result: legacyTask(cancelled) };
      }, legacyCancel),
    ],
  ];
  if (withList)
    methods.push([
      TasksMethod.List,
      async (params, context, id) => {
        const { cursor } = params;
        if (cursor !== undefined && typeof cursor !== 'string') return invalidParams(id, '"cursor" must be a string when present');
        const page = await tasks.list(taskOwner(context), cursor).catch(() => undefined);
        if (page === undefined) return invalidParams(id, 'the cursor is not one this gateway gave');
        return { result: { tasks: page.records.map(legacyTask), ...(page.next !== undefined && { nextCursor: page.next }) } };
      },
    ]);
  return methods;
}

/** 2025-11-25 `tasks/get` of an MCP server's task. */
const legacyGet = (): FederatedAct<HandlerResult> => async (federated, task) => ({ result: legacyTask(await federated.get(task)) });

/** 2025-11-25 `tasks/cancel` of an MCP server's task: the server's cancelled task. */
const legacyCancel = (): FederatedAct<HandlerResult> => async (federated, task) => {
  const cancelled = await federated.cancel(task);
  return { result: cancelled ? legacyTask(cancelled) : {} };
};

/** 2025-11-25 `tasks/result` of an MCP server's task: the server's result, shaped as the era shapes a call's, tied to the task. */
const legacyResult =
  (shape: ShapeResult) =>
  (id: RequestId, context: RequestContext): FederatedAct<HandlerResult> =>
  async (federated, task) => {
    const ended = await federated.result(task, context.deadline - ANSWER_MARGIN_MILLIS);
    if (ended === undefined)
      return jsonRpcError(
        id,
        JsonRpcErrorCode.InternalError,
        `Task ${task.sealedId} has no result: cancelled, or still working at this request's deadline (poll tasks/get)`,
      );
    const result = shape(task, passedOn(ended));
    const related = { [RELATED_TASK_META]: { taskId: task.sealedId } };
    return { result: { ...result, _meta: { ...(result as { _meta?: object })._meta, ...related } } };
  };
