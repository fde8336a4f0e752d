import type { IncomingMessage } from 'node:http';

/**
 * Who a request comes from, as the application's authenticator verified it. The front only carries it:
 * what a subject or a scope means is the application's. Never logged.
 */
export interface AuthenticatedCaller {
  /** Who the verified caller is: a token's `sub`, or what the application takes for a token without one (its client's id, ...). */
  readonly subject: string;
  /** The scopes granted to the caller. */
  readonly scopes: ReadonlySet<string>;
  /** The verified claims, for the application to read what it is configured to (client id, ...). */
  readonly claims: Readonly<Record<string, unknown>>;
  /**
   * The access token itself, for the one use the application may make of it: exchanging it for a token of
   * another audience (RFC 8693). Never logged, never forwarded as it is.
   */
  readonly token?: string;
}

/**
 * A refusal at the door: 401 for a missing or bad credential, 403 for one that is good but not enough.
 * `challenge` is the `WWW-Authenticate` value; `reason` a short code for logs and metrics, never a credential.
 */
export interface AuthenticationRefusal {
  readonly status: 401 | 403;
  readonly challenge: string;
  readonly reason: string;
  /** For the JSON-RPC error's message: says what is wrong without echoing the credential. */
  readonly message: string;
}

export type Authentication = { readonly caller: AuthenticatedCaller } | { readonly refusal: AuthenticationRefusal };

/**
 * Checks a request's credentials before its body is read. Answers synchronously when it can (a credential
 * verified before), so an authenticated hot path costs no promise; a promise when it must look further.
 */
export type Authenticator = (req: IncomingMessage) => Authentication | Promise<Authentication>;
