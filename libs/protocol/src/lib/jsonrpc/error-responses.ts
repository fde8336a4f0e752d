import { JsonRpcErrorCode } from './error-codes';
import { JSONRPC_VERSION, type JsonRpcErrorResponse, type RequestId } from './messages';

/** Builds a wire error response. `data` must be safe to show the caller: never a stack or a request body. */
export function jsonRpcError(id: RequestId | null, code: number, message: string, data?: unknown): JsonRpcErrorResponse {
  const error = data === undefined ? { code, message } : { code, message, data };
  return { jsonrpc: JSONRPC_VERSION, id, error };
}

export function parseError(detail: string): JsonRpcErrorResponse {
  return jsonRpcError(null, JsonRpcErrorCode.ParseError, `Parse error: ${detail}`);
}

export function invalidRequest(id: RequestId | null, detail: string, data?: unknown): JsonRpcErrorResponse {
  return jsonRpcError(id, JsonRpcErrorCode.InvalidRequest, `Invalid Request: ${detail}`, data);
}

export function methodNotFound(id: RequestId, method: string): JsonRpcErrorResponse {
  return jsonRpcError(id, JsonRpcErrorCode.MethodNotFound, `Method not found: ${callerText(method)}`);
}

export function invalidParams(id: RequestId | null, detail: string): JsonRpcErrorResponse {
  return jsonRpcError(id, JsonRpcErrorCode.InvalidParams, `Invalid params: ${detail}`);
}

/** The detail stays in the server's logs; the caller learns only that the server failed. */
export function internalError(id: RequestId | null): JsonRpcErrorResponse {
  return jsonRpcError(id, JsonRpcErrorCode.InternalError, 'Internal error');
}

/**
 * `tools/call` named a tool the catalogue does not hold, even after one forced refresh (gateway, SPEC G13).
 * `code`: -32001 in the 2025 era; the 2026-07-28 revision, which reserves the -32000 range, says -32602.
 */
export function toolNotFound(id: RequestId, name: string, code: number = JsonRpcErrorCode.ToolNotFound): JsonRpcErrorResponse {
  return jsonRpcError(id, code, `Unknown tool: ${name.slice(0, 128)}`);
}

/**
 * No tool catalogue could be loaded at all (gateway, SPEC G13): the caller may retry later. `code`: -32003
 * in the 2025 era; an internal error (-32603) in the 2026-07-28 revision, which reserves the -32000 range.
 */
export function registryUnavailable(id: RequestId, code: number = JsonRpcErrorCode.RegistryUnavailable): JsonRpcErrorResponse {
  return jsonRpcError(id, code, 'Tool registry unavailable: no tool catalogue could be loaded yet; retry later');
}

/** Caller-supplied text echoed in an error message is cut short, so an error never amplifies a request. */
export function callerText(text: string): string {
  return text.length > 64 ? `${text.slice(0, 64)}…` : text;
}

/** 2026-07-28: a transport header is missing, invalid or differs from the body; `detail` names the header. */
export function headerMismatch(id: RequestId | null, detail: string): JsonRpcErrorResponse {
  return jsonRpcError(id, JsonRpcErrorCode.HeaderMismatch, `Header mismatch: ${detail}`);
}

/** The version asked for is not served; `supported` is what the caller may retry with. */
export function unsupportedProtocolVersion(id: RequestId | null, requested: string, supported: readonly string[]): JsonRpcErrorResponse {
  const shown = requested.slice(0, 32);
  return jsonRpcError(
    id,
    JsonRpcErrorCode.UnsupportedProtocolVersion,
    `Unsupported protocol version: ${shown}; use one of ${supported.join(', ')}`,
    {
      supported,
      requested: shown,
    },
  );
}

/** 2026-07-28: the request needs client capabilities its `_meta` did not declare. */
export function missingRequiredClientCapability(id: RequestId, requiredCapabilities: Record<string, object>): JsonRpcErrorResponse {
  const names = Object.keys(requiredCapabilities).join(', ');
  return jsonRpcError(id, JsonRpcErrorCode.MissingRequiredClientCapability, `Missing required client capability: ${names}`, {
    requiredCapabilities,
  });
}
