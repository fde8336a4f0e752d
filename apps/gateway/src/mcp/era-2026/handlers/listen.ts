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
import type { EventStream } from '@toolmesh/transport-http/server';

import { type ChangeListeners, noRoomMessage } from '../../change-notifications/change-listeners';
import { errorOutcome } from '../../outcomes';
import { isObject } from '../envelope';
import type { ModernRequestHandler } from '../era-2026';

/**
 * `subscriptions/listen` (2026-07-28 §Subscriptions): a long-lived event stream that opens with the
 * acknowledgement of what is honoured (tool list changes, and resource list changes when the gateway
 * serves skills of its own or an MCP server's resources: what changes here), then carries `notifications/tools/list_changed` and
 * `notifications/resources/list_changed`, each tagged with the listen request's id. The
 * client cancels by closing it; shutdown ends it with the listen result. The open response is the only
 * state, so any replica can serve it.
 */
export function listenHandler(
  listeners: ChangeListeners,
  resultMeta: Record<string, unknown>,
  /** Whether resource-list changes are sent (the gateway's own skills, an MCP server's resources: issue 49). */
  resourcesChange = false,
): ModernRequestHandler {
  return async (params, context, id) => {
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
    const honoured = {
      ...(filter.toolsListChanged === true && { toolsListChanged: true }),
      ...(resourcesChange && filter.resourcesListChanged === true && { resourcesListChanged: true }),
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
