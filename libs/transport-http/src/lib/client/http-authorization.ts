/**
 * What the Streamable HTTP client transport asks of whoever holds a server's credentials (the agent's
 * OAuth flow, SPEC A19). The transport knows HTTP, not OAuth: it puts `authorization()` on every
 * request (POST, the GET streams, DELETE) and, when the server refuses one, hands the refusal over and
 * retries once the holder has new credentials. The holder never sees a body, and the transport never
 * sees how the credentials were obtained.
 */
export interface HttpAuthorization {
  /** The `Authorization` header value for the next request, or undefined to send none. */
  authorization(): Promise<string | undefined>;
  /**
   * The server answered 401, or 403 with `error="insufficient_scope"` (a step-up). Resolves once new
   * credentials are in place, so the transport retries the request; rejects when none can be had (the
   * request then fails with that error). `wwwAuthenticate` is the challenge exactly as the server sent it.
   */
  challenged(challenge: AuthorizationChallenge): Promise<void>;
}

export interface AuthorizationChallenge {
  readonly status: 401 | 403;
  readonly wwwAuthenticate: string | undefined;
}

/**
 * Step-ups for one request before it fails with the 403: the conformance suite's limit is three
 * authorization attempts (auth/scope-retry-limit), and the first 401 is one of them.
 */
export const MAX_STEP_UPS_PER_REQUEST = 2;

/** A 403 that asks for more scope (RFC 6750 §3.1), as opposed to one no token can cure. */
export function isInsufficientScope(wwwAuthenticate: string | undefined): boolean {
  return wwwAuthenticate !== undefined && /(^|[\s,])error\s*=\s*"?insufficient_scope"?/i.test(wwwAuthenticate);
}

/**
 * The mark the SDK client's transports put on an error of their authorization step
 * (`Symbol.for('mcp.authSeamEscape')`, SDK 2.4.0 client/authSeam): the `server/discover` probe's
 * classifier then fails the connection with the error itself ("auth-required") instead of wrapping it
 * as a network failure of the probe ("Version negotiation probe failed: ..."), so the caller still
 * sees its code (`oauth.*`). The error object is passed on unchanged.
 */
const SDK_AUTH_SEAM = Symbol.for('mcp.authSeamEscape');

export function asAuthorizationFailure(error: unknown): unknown {
  if (typeof error === 'object' && error !== null && Object.isExtensible(error))
    Object.defineProperty(error, SDK_AUTH_SEAM, { value: true, configurable: true });
  return error;
}
