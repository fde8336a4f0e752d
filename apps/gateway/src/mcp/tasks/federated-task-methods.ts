import { jsonRpcError, JsonRpcErrorCode, type JsonRpcErrorResponse, type RequestId } from '@toolmesh/protocol';

import { type FederatedTask, FederatedTasks } from '../../upstreams/federated-tasks';

/** What a `tasks/*` method does with an MCP server's task: its answer, or the server's error as the caller's. */
export type FederatedAct<T> = (federated: FederatedTasks, task: FederatedTask) => Promise<T>;

/**
 * An MCP server's task under the gateway's sealed id (issue 47; ADR 0028, "Addendum: MCP servers' tasks"): `act` on it
 * at its server, through any replica. Undefined when the id is not such a task's, so that the gateway's own
 * tasks are served as ever; `{ notFound }` when it is sealed but not this caller's (or expired, or altered):
 * the same answer as an unknown task's, so ids cannot be probed.
 */
export async function onFederated<T>(
  federated: FederatedTasks | undefined,
  taskId: string,
  owner: string,
  id: RequestId,
  act: FederatedAct<T>,
): Promise<{ readonly answer: T } | { readonly error: JsonRpcErrorResponse } | { readonly notFound: true } | undefined> {
  if (federated === undefined || !FederatedTasks.owns(taskId)) return undefined;
  const task = await federated.find(taskId, owner);
  if (task === undefined) return { notFound: true };
  try {
    return { answer: await act(federated, task) };
  } catch (error) {
    return { error: relayedError(id, error) };
  }
}

/** The server's JSON-RPC error passed on as it is (its code and message); any other failure as an internal error naming it. */
function relayedError(id: RequestId, error: unknown): JsonRpcErrorResponse {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  const text = typeof message === 'string' ? message : String(error);
  return jsonRpcError(id, typeof code === 'number' ? code : JsonRpcErrorCode.InternalError, `The task's MCP server: ${text}`);
}
