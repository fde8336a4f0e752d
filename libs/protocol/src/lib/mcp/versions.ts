import {
  BAGGAGE_META_KEY,
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  LOG_LEVEL_META_KEY,
  PROTOCOL_VERSION_META_KEY,
  SERVER_INFO_META_KEY,
  SUBSCRIPTION_ID_META_KEY,
  TRACEPARENT_META_KEY,
  TRACESTATE_META_KEY,
} from '@modelcontextprotocol/client';

/**
 * Protocol revisions, straight from the MCP SDK so that upgrading the SDK is the one place they change.
 * Which of them a deployable serves is its own configuration (the gateway's `supported-versions`).
 * `SUPPORTED_PROTOCOL_VERSIONS` is the SDK's list of `initialize`-based (2025-era) revisions.
 */
export { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/client';

/**
 * The stateless revisions (no `initialize`, per-request `_meta`). The SDK keeps this list internal, so it
 * is named here; a newer modern revision is added here when the SDK learns it.
 */
export const MODERN_PROTOCOL_VERSIONS: readonly string[] = ['2026-07-28'];

/** The first modern revision: a version at or after it is modern (the SDK's rule), known or not. */
const FIRST_MODERN_VERSION = '2026-07-28';

/** True for a 2026-07-28-or-later version string, including ones this build does not know yet. */
export function isModernProtocolVersion(version: string): boolean {
  return /^\d{4}-\d{2}-\d{2}$/.test(version) && version >= FIRST_MODERN_VERSION;
}

/** Keys of a modern request's and result's `_meta` (2026-07-28, basic/index §_meta), from the SDK. */
export const McpMetaKey = {
  ProtocolVersion: PROTOCOL_VERSION_META_KEY,
  ClientCapabilities: CLIENT_CAPABILITIES_META_KEY,
  ClientInfo: CLIENT_INFO_META_KEY,
  LogLevel: LOG_LEVEL_META_KEY,
  ServerInfo: SERVER_INFO_META_KEY,
  SubscriptionId: SUBSCRIPTION_ID_META_KEY,
  Traceparent: TRACEPARENT_META_KEY,
  Tracestate: TRACESTATE_META_KEY,
  Baggage: BAGGAGE_META_KEY,
} as const;

/** HTTP headers of the Streamable HTTP transport, lower-cased as Node delivers them. */
export const McpHttpHeader = {
  ProtocolVersion: 'mcp-protocol-version',
  SessionId: 'mcp-session-id',
  /** 2026-07-28: the JSON-RPC method, repeated for intermediaries. */
  Method: 'mcp-method',
  /** 2026-07-28: `params.name` of tools/call and prompts/get, `params.uri` of resources/read. */
  Name: 'mcp-name',
  /** 2026-07-28: `Mcp-Param-{Name}` carries a tool argument marked `x-mcp-header: "{Name}"`. */
  ParamPrefix: 'mcp-param-',
} as const;
