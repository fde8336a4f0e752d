import type { RawJson } from '@toolmesh/protocol';
import type { RequestContext } from '@toolmesh/transport-http/server';

/** What a request handler answers: a result, or a JSON-RPC error (code and message). */
export type HandlerResult = { result: object | RawJson } | { error: { code: number; message: string; data?: unknown } };

export type RequestHandler = (params: Record<string, unknown>, context: RequestContext) => Promise<HandlerResult>;

