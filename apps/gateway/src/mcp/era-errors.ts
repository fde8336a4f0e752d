import {
  jsonRpcError,
  JsonRpcErrorCode,
  type JsonRpcErrorResponse,
  registryUnavailable,
  type RequestId,
  toolNotFound,
} from '@toolmesh/protocol';

import type { ToolLookupFailure } from '../execution/tool-execution-service';
import type { RateLimitRefusal } from '../limits/call-rate-limits';

/**
 * The one place a failure of the gateway's own becomes an era's wire error, built with the era's code
 * from the start. The 2025 era uses this project's -32001 and -32003; the 2026-07-28 revision reserves
 * the -32000 range it does not define, so there an unknown tool is -32602, as the revision says, and a
 * catalogue that cannot be read an internal error, -32603.
 */
export interface EraErrors {
  readonly registryUnavailable: (id: RequestId) => JsonRpcErrorResponse;
  /** A `tools/call` whose tool was not found, for either reason. */
  readonly lookupFailed: (id: RequestId, failure: ToolLookupFailure, toolName: string) => JsonRpcErrorResponse;
  /** A `tools/call` over a rate limit (HTTP 429). */
  readonly rateLimited: (id: RequestId, refusal: RateLimitRefusal) => JsonRpcErrorResponse;
}

function eraErrors(codes: Record<ToolLookupFailure | 'rate_limited', number>): EraErrors {
  const unavailable = (id: RequestId) => registryUnavailable(id, codes.registry_unavailable);
  return {
    registryUnavailable: unavailable,
    lookupFailed: (id, failure, toolName) =>
      failure === 'unknown_tool' ? toolNotFound(id, toolName, codes.unknown_tool) : unavailable(id),
    rateLimited: (id, { limit, retryAfterSeconds }) =>
      jsonRpcError(
        id,
        codes.rate_limited,
        `Rate limited: ${limit === 'caller' ? 'this caller has made' : 'this tool has had'} too many calls; retry after ${retryAfterSeconds} s`,
        { limit, retryAfterSeconds },
      ),
  };
}

export const legacyErrors = eraErrors({
  unknown_tool: JsonRpcErrorCode.ToolNotFound,
  registry_unavailable: JsonRpcErrorCode.RegistryUnavailable,
  rate_limited: JsonRpcErrorCode.RateLimited,
});
export const modernErrors = eraErrors({
  unknown_tool: JsonRpcErrorCode.InvalidParams,
  registry_unavailable: JsonRpcErrorCode.InternalError,
  rate_limited: JsonRpcErrorCode.InternalError,
});
