import { JsonRpcErrorCode } from '@toolmesh/protocol';

import type { UpstreamRefusal } from '../call/tool-call-outcome';

/** The server's message, cut as a tool service's error detail is (result-mapper.ts): its words, bounded. */
const MAX_MESSAGE = 500;

/**
 * Which of a server's JSON-RPC errors to a forwarded `tools/call` are protocol errors about what our caller
 * sent, and so go back to it as the same error (issue 28; MCP's tools error handling, SEP-1303): -32602
 * (arguments or params the server refused, a tool it no longer has), and -32021 for a 2026 caller, since
 * the server was told that caller's own capabilities, so the missing one is the caller's. Everything else
 * says something about the server or the hop (-32603, -32601, -32020, -32022, the legacy range, a 2025
 * caller's -32021, whose declaration the server never saw) and stays an `isError` result, as a failure to
 * get an answer does.
 */
export function refusalOf(error: unknown, callerCapabilities: Readonly<Record<string, unknown>> | undefined): UpstreamRefusal | undefined {
  const { code, message, data } = (error ?? {}) as { code?: unknown; message?: unknown; data?: unknown };
  if (code === JsonRpcErrorCode.InvalidParams) return { invalidParams: String(message).slice(0, MAX_MESSAGE) };
  if (code !== JsonRpcErrorCode.MissingRequiredClientCapability || callerCapabilities === undefined) return undefined;
  const required = (data as { requiredCapabilities?: unknown } | undefined)?.requiredCapabilities;
  return isCapabilities(required) ? { requiredCapabilities: required } : undefined;
}

/** `requiredCapabilities` as the revision has it: capability names, each an object. */
function isCapabilities(value: unknown): value is Record<string, object> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const entries = Object.values(value);
  return entries.length > 0 && entries.every((entry) => typeof entry === 'object' && entry !== null && !Array.isArray(entry));
}
