import { type JSONRPCMessage, McpMetaKey } from '@toolmesh/protocol';
import { CallerHeader, type RequestContext } from '@toolmesh/transport-http/server';

import type { TraceHeaders } from '../call/trace-context';

/** The `_meta` keys of the correlation ids an MCP server gets with each forwarded call (docs/gateway.md). */
const CORRELATION_META_KEYS = { guid: 'io.toolmesh/guid', requestId: 'io.toolmesh/requestId' } as const;

/**
 * Each of those `_meta` keys, and the trace context's, with the header a tool service gets the same value
 * in. Nothing of the caller's (its token, its session, its other headers) is among them.
 */
const HEADER_OF_META_KEY = [
  [CORRELATION_META_KEYS.guid, CallerHeader.Guid],
  [CORRELATION_META_KEYS.requestId, CallerHeader.RequestId],
  [McpMetaKey.Traceparent, 'traceparent'],
  [McpMetaKey.Tracestate, 'tracestate'],
] as const;

/** A forwarded call's `_meta`: the request's correlation ids and trace context. */
export function correlationMeta(context: RequestContext, trace: TraceHeaders | undefined): Record<string, unknown> {
  return {
    [CORRELATION_META_KEYS.guid]: context.guid,
    [CORRELATION_META_KEYS.requestId]: context.requestId,
    ...(trace?.traceparent !== undefined && { [McpMetaKey.Traceparent]: trace.traceparent }),
    ...(trace?.tracestate !== undefined && { [McpMetaKey.Tracestate]: trace.tracestate }),
  };
}

/**
 * The same ids as headers, read from the outgoing message's `_meta` (the transport asks for each message),
 * so a forwarded call carries them on the wire as a REST tool call does; other messages carry none.
 */
export function correlationHeaders(message: JSONRPCMessage): Record<string, string> {
  const meta = 'params' in message ? (message.params as { _meta?: Record<string, unknown> } | undefined)?._meta : undefined;
  const headers: Record<string, string> = {};
  if (meta === undefined) return headers;
  for (const [key, header] of HEADER_OF_META_KEY) {
    const value = meta[key];
    if (typeof value === 'string') headers[header] = value;
  }
  return headers;
}
