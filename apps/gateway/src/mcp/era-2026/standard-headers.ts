import {
  decodeHeaderValue,
  headerMismatch,
  type JsonRpcErrorResponse,
  MCP_NAME_SOURCE,
  McpHttpHeader,
  type RequestId,
} from '@toolmesh/protocol';
import type { RequestContext } from '@toolmesh/transport-http/server';

import { headerValue } from '../request-headers';

/**
 * The 2026 transport headers that repeat the body, so that intermediaries can route without reading it:
 * `MCP-Protocol-Version` = the `_meta` version and `Mcp-Method` = the method on every request, `Mcp-Name`
 * on the named methods. Missing, invalid or different is `-32020` (2026-07-28 §Streamable HTTP).
 */
export function checkStandardHeaders(
  id: RequestId,
  method: string,
  params: Record<string, unknown>,
  claimedVersion: string,
  context: RequestContext,
): JsonRpcErrorResponse | undefined {
  const version = headerValue(context, McpHttpHeader.ProtocolVersion);
  if (version === undefined)
    return headerMismatch(id, `${McpHttpHeader.ProtocolVersion} is required and must equal _meta's protocol version`);
  if (version !== claimedVersion) return headerMismatch(id, `${McpHttpHeader.ProtocolVersion} differs from _meta's protocol version`);
  const methodHeader = headerValue(context, McpHttpHeader.Method);
  if (methodHeader === undefined) return headerMismatch(id, `${McpHttpHeader.Method} is required and must equal the method`);
  if (methodHeader !== method) return headerMismatch(id, `${McpHttpHeader.Method} differs from the method`);
  const field = MCP_NAME_SOURCE.get(method);
  if (field === undefined) return undefined;
  const nameHeader = headerValue(context, McpHttpHeader.Name);
  if (nameHeader === undefined) return headerMismatch(id, `${McpHttpHeader.Name} is required on ${method} and must equal params.${field}`);
  const decoded = decodeHeaderValue(nameHeader);
  if (!decoded.ok) return headerMismatch(id, `${McpHttpHeader.Name} ${decoded.problem}`);
  if (decoded.value !== params[field]) return headerMismatch(id, `${McpHttpHeader.Name} differs from params.${field}`);
  return undefined;
}
