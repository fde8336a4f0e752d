import type { JsonRpcErrorResponse, RawJson, RequestId } from '@toolmesh/protocol';
import type { DispatchOutcome, RequestContext } from '@toolmesh/transport-http/server';

import type { InputRequired } from '../../call/input-required';

/**
 * What a request handler answers: a result, an error response built with protocol's builders, (a
 * `tools/call` whose tool service asks for input) the input it needs, which each era relays its own way,
 * or an answer an era's own check already made with its HTTP status (a 2026 `Mcp-Param-*` mismatch, 400),
 * or an event stream (a 2025 call whose MCP server asks its caller for input on the way).
 */
export type HandlerResult =
  { result: object | RawJson } | JsonRpcErrorResponse | { inputRequired: InputRequired } | { answered: DispatchOutcome };

/** `id` is the request's, for the error response; the result is wrapped by the era. */
export type RequestHandler = (params: Record<string, unknown>, context: RequestContext, id: RequestId) => Promise<HandlerResult>;
