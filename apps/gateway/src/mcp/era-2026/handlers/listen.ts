import {
  invalidParams,
  jsonRpcError,
  JsonRpcErrorCode,
  McpMetaKey,
  McpNotification,
  type RequestId,
  serializedText,
  serializeResultResponse,
} from '@toolmesh/protocol';
import type { DispatchOutcome, EventStream, RequestContext } from '@toolmesh/transport-http/server';

import { type ChangeListeners, noRoomMessage, type TaskStatusListener } from '../../change-notifications/change-listeners';
import { errorOutcome } from '../../outcomes';
import { isObject, type RequestEnvelope } from '../envelope';
import type { ModernRequestHandler } from '../era-2026';

/** How a listen stream follows tasks (issue 47, SEP-2663 "Task Status Notifications"), where tasks are served. */
export interface ListenedTasks {
  /**
   * Of the ids asked for, those of the caller's tasks (another caller's, unknown or expired ones are left out
   * of the acknowledgement); or the refusal of a request that asks for task ids without declaring the extension.
   */
  own(taskIds: readonly unknown[], context: RequestContext, id: RequestId, envelope: RequestEnvelope): Promise<string[] | DispatchOutcome>;
  /** What the stream is told of those tasks: `notifications/tasks`, tagged with the subscription. */
  listener(
    context: RequestContext,
    taskIds: ReadonlySet<string>,
    tag: Record<string, unknown>,
    send: (message: string) => void,
  ): TaskStatusListener;
}

/**
 * `subscriptions/listen` (2026-07-28 §Subscriptions): a long-lived event stream that opens with the
 * acknowledgement of what is honoured (tool list changes, and resource list changes when the gateway
 * serves skills of its own or an MCP server's resources: what changes here; and the caller's own tasks among
 * `taskIds`, where tasks are served), then carries `notifications/tools/list_changed`,
 * `notifications/resources/list_changed` and `notifications/tasks`, each tagged with the listen request's id. The
 * client cancels by closing it; shutdown ends it with the listen result. The open response is the only
 * state, so any replica can serve it.
 */
export function listenHandler(
  listeners: ChangeListeners,
  resultMeta: Record<string, unknown>,
  /** Whether resource-list changes are sent (the gateway's own skills, an MCP server's resources: issue 49). */
  resourcesChange = false,
  tasks?: ListenedTasks,
): ModernRequestHandler {
  return async (params, context, id, envelope) => {
    const filter = params.notifications;
    if (!isObject(filter))
      return errorOutcome(
        invalidParams(id, '"notifications" is required: say which change notifications to send, e.g. {"toolsListChanged": true}'),
      );
    const client = context.clientAddress ?? '';
    const noRoom = listeners.noRoomFor(client);
    if (noRoom)
      return errorOutcome(
        jsonRpcError(id, JsonRpcErrorCode.InternalError, noRoomMessage(noRoom, listeners.limits)),
        noRoom === 'replica' ? 503 : 429,
      );
    const taskIds = tasks && Array.isArray(filter.taskIds) ? await tasks.own(filter.taskIds, context, id, envelope) : [];
    if (!Array.isArray(taskIds)) return taskIds;
    const honoured = {
      ...(filter.toolsListChanged === true && { toolsListChanged: true }),
      ...(resourcesChange && filter.resourcesListChanged === true && { resourcesListChanged: true }),
      ...(taskIds.length > 0 && { taskIds }),
    };
    const tag = { [McpMetaKey.SubscriptionId]: id };
    return {
      open: (stream: EventStream) => {
        stream.send(
          JSON.stringify({
            jsonrpc: '2.0',
            method: McpNotification.SubscriptionsAcknowledged,
            params: { _meta: tag, notifications: honoured },
          }),
        );
        const end = () => {
          stream.send(listenResult(id, { ...resultMeta, ...tag }));
          stream.end();
        };
        if (Object.keys(honoured).length === 0) {
          end(); // nothing asked for that this server sends: the stream has nothing to carry
          return;
        }
        const changed = (method: string) => JSON.stringify({ jsonrpc: '2.0', method, params: { _meta: tag } });
        const tools = changed(McpNotification.ToolsListChanged);
        const resources = changed(McpNotification.ResourcesListChanged);
        listeners.add(
          {
            toolsListChanged: () => honoured.toolsListChanged && stream.send(tools),
            resourcesListChanged: () => honoured.resourcesListChanged && stream.send(resources),
            close: end,
            ...(tasks &&
              taskIds.length > 0 && { tasks: tasks.listener(context, new Set(taskIds), tag, (message) => stream.send(message)) }),
          },
          stream,
          client,
        );
      },
    };
  };
}

function listenResult(id: RequestId, meta: Record<string, unknown>): string {
  return serializedText(serializeResultResponse(id, { resultType: 'complete', _meta: meta }));
}
