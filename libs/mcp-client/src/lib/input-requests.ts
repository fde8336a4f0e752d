import { ProtocolError } from '@modelcontextprotocol/client';
import { JsonRpcErrorCode } from '@toolmesh/protocol';

import { isRefusal, type ServerRequestHandlers } from './server-requests';

/** One request a server asks the client to fulfil: on a call's stream, or embedded in an `inputRequests` map. */
export interface InputRequest {
  readonly method: string;
  readonly params?: Record<string, unknown>;
}

/**
 * Answers one request of a server with the client's handlers (ping, roots, elicitation, sampling): the
 * result, or a `ProtocolError` thrown (a refused sampling request, a method the client does not serve). One
 * dispatch for the requests of a relayed call's stream (exchanged-call.ts) and a task's `inputRequests`.
 */
export async function answerServerRequest(
  handlers: ServerRequestHandlers,
  method: string,
  params: unknown,
  signal: AbortSignal,
): Promise<Record<string, unknown>> {
  const { elicitation, sampling, roots } = handlers;
  if (method === 'ping') return {};
  if (method === 'roots/list' && roots) return { roots: [...(await roots())] };
  const given = typeof params === 'object' && params !== null && !Array.isArray(params);
  if ((method === 'elicitation/create' && elicitation) || (method === 'sampling/createMessage' && sampling)) {
    if (!given) throw new ProtocolError(JsonRpcErrorCode.InvalidParams, `${method} needs params`);
  }
  if (method === 'elicitation/create' && elicitation) return { ...(await elicitation(params as never, signal)) };
  if (method === 'sampling/createMessage' && sampling) {
    const answer = await sampling(params as never, signal);
    if (isRefusal(answer)) throw new ProtocolError(-1, answer.refused);
    return { ...answer };
  }
  throw new ProtocolError(JsonRpcErrorCode.MethodNotFound, `Method not found: ${method.slice(0, 100)}`);
}

/**
 * A 2026-07-28 `inputRequests` map answered as its `inputResponses` (SEP-2322's shapes, keyed alike), each
 * request through the handlers, all at once. MRTR has no error shape for one entry, so the first that cannot
 * be answered fails them all (as the SDK's own driver does), its error thrown.
 */
export async function answerInputRequests(
  handlers: ServerRequestHandlers,
  requests: Readonly<Record<string, InputRequest>>,
  signal: AbortSignal,
): Promise<Record<string, Record<string, unknown>>> {
  const answered = await Promise.all(
    Object.entries(requests).map(async ([key, request]) => [
      key,
      await answerServerRequest(handlers, request.method, request.params, signal),
    ]),
  );
  return Object.fromEntries(answered) as Record<string, Record<string, unknown>>;
}
