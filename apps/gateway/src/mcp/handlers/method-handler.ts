import type { JsonRpcErrorResponse, RawJson, RequestId } from '@toolmesh/protocol';
import type { JsonOutcome, RequestContext } from '@toolmesh/transport-http/server';

import type { InputRequired } from '../../execution/input-required';

/**
 * What a request handler answers: a result, an error response built with protocol's builders, (a
 * `tools/call` whose tool service asks for input) the input it needs, which each era relays its own way,
 * or an answer an era's own check already made with its HTTP status (a 2026 `Mcp-Param-*` mismatch, 400).
 */
export type HandlerResult =
  { result: object | RawJson } | JsonRpcErrorResponse | { inputRequired: InputRequired } | { answered: JsonOutcome };

/** `id` is the request's, for the error response; the result is wrapped by the era. */
export type RequestHandler = (params: Record<string, unknown>, context: RequestContext, id: RequestId) => Promise<HandlerResult>;
