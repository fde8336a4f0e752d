import {
  callerText,
  errorMessage,
  jsonRpcError,
  JsonRpcErrorCode,
  type JsonRpcErrorResponse,
  printable,
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
  /**
   * A `resources/read` of a URI no MCP server bundle has, or that several servers behind a namespace serve
   * (`candidates`: its namespaced forms, one per server, named in the message and in `data.candidates`).
   */
  readonly resourceNotFound: (id: RequestId, uri: string, candidates?: readonly string[]) => JsonRpcErrorResponse;
  /**
   * A read or a get an MCP server failed: its own JSON-RPC error passed on as the era allows, anything else
   * -32603. A read's not-found carries `data.uri` (the `uri` read), as the revisions ask, whether or not the
   * server's did.
   */
  readonly upstreamFailed: (id: RequestId, failure: unknown, uri?: string) => JsonRpcErrorResponse;
}

/** The codes of the 2026-07-28 revision that describe one hop (our request to the server), never to be relayed as ours. */
const HOP_CODES: ReadonlySet<number> = new Set([
  JsonRpcErrorCode.HeaderMismatch,
  JsonRpcErrorCode.MissingRequiredClientCapability,
  JsonRpcErrorCode.UnsupportedProtocolVersion,
]);

function eraErrors(codes: Record<ToolLookupFailure | 'rate_limited' | 'resource_not_found', number>): EraErrors {
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
    resourceNotFound: (id, uri, candidates) =>
      candidates === undefined
        ? jsonRpcError(id, codes.resource_not_found, `Resource not found: ${callerText(uri)}`, { uri })
        : jsonRpcError(
            id,
            codes.resource_not_found,
            `Resource not found: ${callerText(uri)} is served by ${candidates.length} MCP servers; read one of ${candidates.map(callerText).join(', ')}`,
            { uri, candidates },
          ),
    upstreamFailed: (id, failure, uri) => {
      const { code, data } = failure as { code?: unknown; data?: unknown };
      // The server's words, bounded and with control characters escaped: they reach the caller as they are.
      const message = printable(errorMessage(failure), 300);
      if (typeof code !== 'number' || HOP_CODES.has(code)) return jsonRpcError(id, JsonRpcErrorCode.InternalError, message);
      if (code !== JsonRpcErrorCode.ResourceNotFound) return jsonRpcError(id, code, message, data);
      return jsonRpcError(id, codes.resource_not_found, message, withUri(data, uri));
    },
  };
}

/** A not-found's `data` with the `uri` read, unless the server named one. */
function withUri(data: unknown, uri: string | undefined): unknown {
  const named = typeof data === 'object' && data !== null && !Array.isArray(data) ? (data as Record<string, unknown>) : undefined;
  if (uri === undefined || typeof named?.uri === 'string') return data;
  return { ...named, uri };
}

export const legacyErrors = eraErrors({
  unknown_tool: JsonRpcErrorCode.ToolNotFound,
  registry_unavailable: JsonRpcErrorCode.RegistryUnavailable,
  rate_limited: JsonRpcErrorCode.RateLimited,
  resource_not_found: JsonRpcErrorCode.ResourceNotFound,
});
export const modernErrors = eraErrors({
  unknown_tool: JsonRpcErrorCode.InvalidParams,
  registry_unavailable: JsonRpcErrorCode.InternalError,
  rate_limited: JsonRpcErrorCode.InternalError,
  resource_not_found: JsonRpcErrorCode.InvalidParams,
});
