import type { EraSetting } from '@toolmesh/mcp-client';

import { AgentError, AgentErrorCode } from '../errors/agent-errors';
import type { AnnotationTrust } from './annotation-trust';
import type { ServerRequestLimits } from './host/server-request-limits';
import type { OAuthSettings } from './oauth/oauth-settings';
import type { ToolFilter } from './tool-filter';

/** `^[a-z0-9]([a-z0-9-]*[a-z0-9])?$`: the server name becomes part of every tool name (`mcp__<server>__<tool>`). */
const SERVER_NAME_PATTERN = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/;

export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
/** Ten minutes: however often a call's progress restarts its request timeout, it ends by then. */
export const DEFAULT_MAX_CALL_TIMEOUT_MS = 600_000;

interface CommonServerConfig {
  readonly name: string;
  /** Timeout of each request to this server. */
  readonly requestTimeoutMs: number;
  /**
   * What starting the server may take, initialize included (a startup, and each reconnection); absent:
   * the startup deadline, max(requestTimeoutMs) + the spawn allowance.
   */
  readonly startupTimeoutMs?: number;
  /** The hard cap on one tool call whose progress notifications keep restarting its request timeout. */
  readonly maxCallTimeoutMs?: number;
  /** The largest message this server may send (a tool result, a tool list); absent: the transport's 4 MiB. */
  readonly maxMessageBytes?: number;
  readonly annotationTrust: AnnotationTrust;
  /** Its tools are always sent to the model, never deferred behind ToolSearch (SPEC A21); absent: false. */
  readonly alwaysLoad?: boolean;
  /** Limits on the sampling and elicitation requests this server may send; absent: the defaults. */
  readonly serverRequests?: ServerRequestLimits;
  /**
   * The protocol era (SPEC A18); absent: `auto`, the `server/discover` probe with the `initialize`
   * fallback. The legacy `sse` transport always speaks `legacy`.
   */
  readonly era?: EraSetting;
  /**
   * The directories offered to this server as its roots (`roots/list`), absolute; empty or absent: none,
   * and the roots capability is not declared to it (it keeps the folders its own arguments give).
   */
  readonly roots?: readonly string[];
  /** The tools of this server the agent uses (`tools: { allow, deny }`); absent: all. */
  readonly tools?: ToolFilter;
}

export interface StdioServerConfig extends CommonServerConfig {
  readonly transport: 'stdio';
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly cwd?: string;
}

export interface HttpServerConfig extends CommonServerConfig {
  /** `sse`: the legacy HTTP+SSE transport (2024-11-05), for old servers; `url` is then its event stream. */
  readonly transport: 'streamable-http' | 'sse';
  readonly url: URL;
  readonly headers: Readonly<Record<string, string>>;
  /** OAuth (SPEC A19) for a Streamable HTTP server; absent: none (static `headers` only). */
  readonly oauth?: OAuthSettings;
}

export type McpServerConfig = StdioServerConfig | HttpServerConfig;

/** Checked at config load and again at registration: whatever path a config takes, a bad name never gets in. */
export function assertServerName(name: string): void {
  if (!SERVER_NAME_PATTERN.test(name)) {
    throw new AgentError(
      AgentErrorCode.InvalidServerName,
      `server name "${name.slice(0, 64)}" is not allowed: use lowercase letters, digits and inner hyphens (e.g. "${suggestName(name)}")`,
    );
  }
}

function suggestName(name: string): string {
  const suggestion = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return suggestion || 'my-server';
}
