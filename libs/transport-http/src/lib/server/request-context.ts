import type { IncomingHttpHeaders } from 'node:http';

import type { AuthenticatedCaller } from './authenticator';
import type { HangUpSignal } from './hang-up';

/**
 * What one MCP HTTP request carries through the gateway: correlation values and the deadline. It is
 * request-scoped only (passed explicitly to what handles the request and gone after); it is never a
 * session. There is no ambient "current" context: AsyncLocalStorage's promise hooks cost 14% of the
 * gateway's CPU per call (docs/adr/0005-gateway-hot-path.md, seventh round).
 */
export interface RequestContext {
  /** End-to-end correlation id: the caller's `guid`, or a fresh UUID. */
  readonly guid: string;
  /** This HTTP request's id: the caller's `x-request-id`, or a fresh UUID. */
  readonly requestId: string;
  /** The caller's `mcp-session-id`: opaque correlation only, never stored or checked. Never logged. */
  readonly sessionId?: string;
  /** Passed to tool services uninterpreted. Never logged. */
  readonly employeeNo?: string;
  /** Passed to tool services uninterpreted. Never logged. */
  readonly virtualEmployeeNo?: string;
  /** The caller's Authorization header, forwarded only where configuration says so. Never logged. */
  readonly authorization?: string;
  /** Who the application's authenticator verified the caller to be; none when the endpoint authenticates nobody. Never logged. */
  readonly caller?: AuthenticatedCaller;
  /**
   * The request's headers as Node parsed them, for the protocol era to check (`MCP-Protocol-Version`,
   * `Mcp-Method`, ...) and to read trace context from. Never logged.
   */
  readonly headers?: IncomingHttpHeaders;
  /** The peer's address on this connection (a balancer's, behind one): what per-client bounds count by. */
  readonly clientAddress?: string;
  /** When the whole request must be answered, in `performance.now()` milliseconds. */
  readonly deadline: number;
  readonly receivedAt: number;
  /**
   * Fires when the client's connection closes before its answer was sent (a client that hangs up
   * cancels its call, SPEC G26), and so also when shutdown cuts the connections left after draining.
   */
  readonly hangUp?: HangUpSignal;
  /** The curated endpoint the request came to, by its configured name (the gateway's, issue 46); undefined at the default endpoint. */
  readonly endpoint?: string;
}

/** Milliseconds left before the request's deadline; never negative. */
export function remainingMillis(context: RequestContext, now = performance.now()): number {
  return Math.max(0, context.deadline - now);
}
