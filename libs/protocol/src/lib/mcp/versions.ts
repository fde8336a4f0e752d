/**
 * Protocol revisions, straight from the MCP SDK so that upgrading the SDK is the one place they change.
 * Which of them a deployable serves is its own configuration (the gateway's `supported-versions`).
 */
export { DEFAULT_NEGOTIATED_PROTOCOL_VERSION, LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/client';

/** HTTP headers of the Streamable HTTP transport (spec 2025-06-18 §Transports), lower-cased as Node delivers them. */
export const McpHttpHeader = {
  ProtocolVersion: 'mcp-protocol-version',
  SessionId: 'mcp-session-id',
} as const;
