import {
  type JsonRpcErrorResponse,
  type RawJson,
  type RequestId,
  serializeErrorResponse,
  serializeResultResponse,
} from '@toolmesh/protocol';
import type { JsonOutcome } from '@toolmesh/transport-http/server';

/** A JSON-RPC result answered with `status` (200 unless an era says otherwise); `members` are added to it. */
export function resultOutcome(id: RequestId, result: object | RawJson, members?: object): JsonOutcome {
  return { status: 200, json: serializeResultResponse(id, result, members), isError: false };
}

/** A JSON-RPC error answered with `status`: 200 for handler errors, the era's status for protocol ones. */
export function errorOutcome(error: JsonRpcErrorResponse, status = 200): JsonOutcome {
  return { status, json: serializeErrorResponse(error), isError: true };
}
