import { SSEClientTransport } from '@modelcontextprotocol/client';
import type { McpTransport } from '@toolmesh/protocol';

/**
 * The legacy HTTP+SSE transport (MCP 2024-11-05, deprecated since 2025-03-26), for old servers only: a GET
 * event stream whose first `endpoint` event names where to POST. It is the SDK's SSEClientTransport, not
 * ours: nothing new is built on it, and the Streamable HTTP transport is what servers should speak.
 * `headers` go with the stream's GET and every POST; they are never logged.
 */
export function legacySseClientTransport(url: URL, headers: Readonly<Record<string, string>>): McpTransport {
  return new SSEClientTransport(url, { requestInit: { headers: { ...headers } }, redirectPolicy: 'same-origin' });
}
