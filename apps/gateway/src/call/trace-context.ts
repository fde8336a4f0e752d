import { McpMetaKey } from '@toolmesh/protocol';
import type { RequestContext } from '@toolmesh/transport-http/server';

/** W3C Trace Context and Baggage headers to send on with the tool call. */
export type TraceHeaders = Readonly<Partial<Record<'traceparent' | 'tracestate' | 'baggage', string>>>;

/** version-traceid-parentid-flags, lower-case hex (W3C Trace Context §3.2). */
const TRACEPARENT = /^[0-9a-f]{2}-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$/;
/** Visible ASCII and space only: nothing that could split or smuggle a header. */
const HEADER_SAFE = /^[\x20-\x7e]*$/;
/** The W3C limits: 32 list members of about 256 bytes for tracestate, 8192 bytes for baggage. */
const MAX_LENGTH = { traceparent: 55, tracestate: 512, baggage: 8192 } as const;
/** Each header with the `_meta` key that carries it in a 2026 request. */
const TRACE_KEYS = [
  ['traceparent', McpMetaKey.Traceparent],
  ['tracestate', McpMetaKey.Tracestate],
  ['baggage', McpMetaKey.Baggage],
] as const;

/**
 * The caller's trace context, continued into the tool call: a 2026 request's `_meta` keys (the revision
 * puts them there, unprefixed), else the HTTP headers a 2025 client or a proxy sent. A value that is not
 * well-formed or over the W3C limit is dropped, never forwarded: a trace must not break or bloat a call.
 */
export function traceHeaders(params: Record<string, unknown>, context: RequestContext): TraceHeaders {
  const meta = typeof params._meta === 'object' && params._meta !== null ? (params._meta as Record<string, unknown>) : {};
  const headers: Partial<Record<keyof typeof MAX_LENGTH, string>> = {};
  for (const [key, metaKey] of TRACE_KEYS) {
    const value = meta[metaKey] ?? context.headers?.[key];
    if (typeof value !== 'string' || value.length > MAX_LENGTH[key] || !HEADER_SAFE.test(value)) continue;
    if (key === 'traceparent' && !TRACEPARENT.test(value)) continue;
    headers[key] = value;
  }
  // tracestate and baggage mean nothing without the trace they belong to.
  return headers.traceparent === undefined ? {} : headers;
}
