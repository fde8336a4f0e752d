import {
  encodeHeaderValue,
  isModernProtocolVersion,
  type JSONRPCMessage,
  MCP_NAME_SOURCE,
  McpHttpHeader,
  McpMetaKey,
} from '@toolmesh/protocol';

/**
 * Headers the transport derives from the message or owns itself. The SDK client's per-request headers
 * (`Mcp-Param-*`) never replace them: a caller could otherwise make a header disagree with the body,
 * which a 2026-07-28 server rejects with -32020.
 */
const RESERVED = new Set([
  'accept',
  'authorization',
  'content-type',
  McpHttpHeader.ProtocolVersion,
  McpHttpHeader.Method,
  McpHttpHeader.Name,
  McpHttpHeader.SessionId,
]);

/** The protocol version a message's `_meta` claims when it is a 2026-07-28-or-later message, else undefined. */
export function modernVersionOf(message: JSONRPCMessage): string | undefined {
  if (!('method' in message)) return undefined;
  const meta = (message.params as { _meta?: Record<string, unknown> } | undefined)?._meta;
  const version = meta?.[McpMetaKey.ProtocolVersion];
  return typeof version === 'string' && isModernProtocolVersion(version) ? version : undefined;
}

/**
 * `MCP-Protocol-Version`, `Mcp-Method` and `Mcp-Name` of a modern message, taken from the message itself
 * (the version from its `_meta`, so the header always equals the body's claim, the probe included).
 */
export function standardHeaders(message: JSONRPCMessage, version: string): Record<string, string> {
  if (!('method' in message)) return {};
  const headers: Record<string, string> = { [McpHttpHeader.ProtocolVersion]: version, [McpHttpHeader.Method]: message.method };
  const field = MCP_NAME_SOURCE.get(message.method);
  const name = field && (message.params as Record<string, unknown> | undefined)?.[field];
  if (typeof name === 'string') headers[McpHttpHeader.Name] = encodeHeaderValue(name);
  return headers;
}

/** The SDK client's headers for one message (`Mcp-Param-*`, already encoded), without the reserved ones. */
export function perMessageHeaders(headers: Readonly<Record<string, string>> | undefined): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (!RESERVED.has(name.toLowerCase())) kept[name.toLowerCase()] = value;
  }
  return kept;
}
