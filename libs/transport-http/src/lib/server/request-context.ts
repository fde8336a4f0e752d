import { AsyncLocalStorage } from 'node:async_hooks';
import type { IncomingHttpHeaders } from 'node:http';
import type { HangUpSignal } from './hang-up';

/**
 * What one MCP HTTP request carries through the gateway: correlation values and the deadline. It is
 * request-scoped only (held in AsyncLocalStorage for the duration of the request and gone after); it is
 * never a session.
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
  /**
   * The request's headers as Node parsed them, for the protocol era to check (`MCP-Protocol-Version`,
   * `Mcp-Method`, ...) and to read trace context from. Never logged.
   */
  readonly headers?: IncomingHttpHeaders;
  /** When the whole request must be answered, in `performance.now()` milliseconds. */
  readonly deadline: number;
  readonly receivedAt: number;
  /**
   * Fires when the client's connection closes before its answer was sent (a client that hangs up
   * cancels its call, SPEC G26), and so also when shutdown cuts the connections left after draining.
   */
  readonly hangUp?: HangUpSignal;
}

/** Milliseconds left before the request's deadline; never negative. */
export function remainingMillis(context: RequestContext, now = performance.now()): number {
  return Math.max(0, context.deadline - now);
}

const storage = new AsyncLocalStorage<RequestContext>();

/** Runs `fn` with `context` as the current request context; it is cleared when `fn` settles. */
export function runWithRequestContext<T>(context: RequestContext, fn: () => T): T {
  return storage.run(context, fn);
}

/** The context of the request being handled, if any (for logs; handlers receive it explicitly). */
export function currentRequestContext(): RequestContext | undefined {
  return storage.getStore();
}
