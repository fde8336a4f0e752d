import type { HangUpSignal } from '@toolmesh/transport-http/server';

/** One outbound tool call: a single request, never retried (SPEC G12: idempotency belongs to the tool service). */
export interface ToolHttpRequest {
  readonly endpoint: URL;
  /** An OpenAPI operation's method; a manifest tool's call is a POST. */
  readonly method?: string;
  /** An OpenAPI operation's path and query (outbound-path.ts), on the endpoint's origin; else the endpoint's own. */
  readonly path?: string;
  /** The call's arguments as raw JSON (an OpenAPI operation's body argument); none for an operation without a body. */
  readonly body?: string;
  readonly headers: Readonly<Record<string, string>>;
  /** Total time allowed, already cut to the request's remaining budget. */
  readonly timeoutMillis: number;
  /** Ends the call when the caller hangs up (or shutdown cuts it): the connection is closed, nothing more is read. */
  readonly hangUp?: HangUpSignal;
}

export type ToolHttpResponse =
  | { readonly kind: 'reply'; readonly status: number; readonly body: string; readonly accepted?: AcceptedHeaders }
  | { readonly kind: 'failure'; readonly reason: ToolCallFailureReason; readonly detail: string };

/**
 * What a `202 Accepted` reply says of where and when to look for the outcome (issue 47): read only from a 202,
 * so other replies cost nothing. Raw header values; the tasks poller checks them.
 */
export interface AcceptedHeaders {
  readonly location?: string;
  readonly retryAfter?: string;
}

export type ToolCallFailureReason = 'timeout' | 'cancelled' | 'connection_refused' | 'network' | 'reply_too_large' | 'reply_too_deep';

/** The outbound port of tool execution; the HTTP adapter is swappable (ADR 0004 tells why undici). */
export interface ToolClient {
  post(request: ToolHttpRequest): Promise<ToolHttpResponse>;
  close(): Promise<void>;
}
