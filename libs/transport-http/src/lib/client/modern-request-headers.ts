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
 * Adds `MCP-Protocol-Version`, `Mcp-Method` and `Mcp-Name` of a modern message to `headers`, taken from the
 * message itself (the version from its `_meta`, so the header always equals the body's claim, the probe
 * included). Written into the request's headers rather than returned: a forwarded call builds its headers
 * once, not object by object (docs/adr/0005-gateway-hot-path.md).
 */
export function addStandardHeaders(headers: Record<string, string>, message: JSONRPCMessage, version: string): void {
  if (!('method' in message)) return;
  headers[McpHttpHeader.ProtocolVersion] = version;
  headers[McpHttpHeader.Method] = message.method;
  const field = MCP_NAME_SOURCE.get(message.method);
  const name = field && (message.params as Record<string, unknown> | undefined)?.[field];
  if (typeof name === 'string') headers[McpHttpHeader.Name] = encodeHeaderValue(name);
}

/** Adds the owner's or the SDK client's headers for one message (`Mcp-Param-*`, already encoded) to `headers`, but the reserved ones. */
export function addPerMessageHeaders(headers: Record<string, string>, given: Readonly<Record<string, string>> | undefined): void {
  for (const name in given) {
    const lower = name.toLowerCase();
    if (!RESERVED.has(lower)) headers[lower] = given[name];
  }
}
