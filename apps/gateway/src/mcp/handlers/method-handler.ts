import type { JsonRpcErrorResponse, RawJson, RequestId } from '@toolmesh/protocol';
import type { RequestContext } from '@toolmesh/transport-http/server';

/** What a request handler answers: a result, or an error response built with protocol's builders. */
export type HandlerResult = { result: object | RawJson } | JsonRpcErrorResponse;

/** `id` is the request's, for the error response; the result is wrapped by the era. */
export type RequestHandler = (params: Record<string, unknown>, context: RequestContext, id: RequestId) => Promise<HandlerResult>;
