import { isLoggingLevel, LOGGING_LEVELS, McpMetaKey } from '@toolmesh/protocol';

/** What a modern request says about itself in `params._meta` (2026-07-28 §_meta). */
export interface RequestEnvelope {
  readonly protocolVersion: string;
  readonly clientCapabilities: Readonly<Record<string, unknown>>;
}

export type EnvelopeCheck = { ok: true; envelope: RequestEnvelope } | { ok: false; problem: string };

/**
 * The required `_meta` keys of every modern request. `clientInfo` is optional (servers MUST NOT require
 * it) and self-reported, so nothing here depends on it.
 */
export function readEnvelope(params: Record<string, unknown> | undefined): EnvelopeCheck {
  const meta = params?._meta;
  if (!isObject(meta)) return { ok: false, problem: '"_meta" is required and must be an object' };
  const protocolVersion = meta[McpMetaKey.ProtocolVersion];
  if (typeof protocolVersion !== 'string' || protocolVersion.length === 0) {
    return { ok: false, problem: `"_meta.${McpMetaKey.ProtocolVersion}" is required and must be a string` };
  }
  const clientCapabilities = meta[McpMetaKey.ClientCapabilities];
  if (!isObject(clientCapabilities)) {
    return { ok: false, problem: `"_meta.${McpMetaKey.ClientCapabilities}" is required and must be an object ({} for none)` };
  }
  const clientInfo = meta[McpMetaKey.ClientInfo];
  if (clientInfo !== undefined && !isObject(clientInfo))
    return { ok: false, problem: `"_meta.${McpMetaKey.ClientInfo}" must be an object when present` };
  // The gateway emits no log messages, but an unknown level is still the client's mistake (-32602, as the revision asks).
  const logLevel = meta[McpMetaKey.LogLevel];
  if (logLevel !== undefined && !isLoggingLevel(logLevel))
    return { ok: false, problem: `"_meta.${McpMetaKey.LogLevel}" must be one of ${LOGGING_LEVELS.join(', ')}` };
  return { ok: true, envelope: { protocolVersion, clientCapabilities } };
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
