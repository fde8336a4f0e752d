import { hash } from 'node:crypto';

import type { AuthenticatedCaller, Authentication, Authenticator } from '@toolmesh/transport-http/server';
import type { JWTPayload } from 'jose';

import type { TokenRefusalReason, TokenVerifier } from './jwt-verifier';
import type { ProtectedResource } from './protected-resource';
import type { VerifiedTokens } from './verified-tokens';

/** Why a request was refused at the door, for the metrics: a token's refusal, or none at all. */
export type AuthRefusalReason = TokenRefusalReason | 'no_token' | 'not_bearer';

export interface BearerAuthenticatorParts {
  readonly verify: TokenVerifier;
  readonly tokens: VerifiedTokens;
  readonly resource: ProtectedResource;
  /** Told of each refusal (the auth metrics). */
  readonly onRefused?: (reason: AuthRefusalReason) => void;
}

/** RFC 6750's `Bearer b64token`; the scheme's name is case-insensitive. */
const BEARER = /^bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;

/**
 * The HTTP front's authenticator when `auth` is configured: the bearer token of the Authorization header,
 * taken from the verified tokens when it was seen before (synchronously: the hot path), else verified.
 * Only the verified token decides who the caller is, never another header of the request.
 */
export function bearerAuthenticator({ verify, tokens, resource, onRefused }: BearerAuthenticatorParts): Authenticator {
  const refuse = (reason: AuthRefusalReason, challenge: string, message: string): Authentication => {
    onRefused?.(reason);
    return { refusal: { status: 401, challenge, reason, message } };
  };
  const invalid = (reason: AuthRefusalReason) => refuse(reason, resource.invalidToken(), `the access token is not valid here (${reason})`);
  return (req) => {
    const header = req.headers.authorization;
    if (header === undefined) return refuse('no_token', resource.missingToken(), 'send an access token as "Authorization: Bearer <token>"');
    const token = BEARER.exec(header)?.[1];
    if (token === undefined) return invalid('not_bearer');
    const known = tokens.get(token);
    if (known !== undefined) return { caller: known };
    return verify(token).then((verification): Authentication => {
      if ('refused' in verification) return invalid(verification.refused);
      const caller = callerOf(token, verification.payload);
      const expiresAt = (verification.payload.exp as number) * 1000;
      tokens.set(token, caller, Math.min(expiresAt, verification.usableUntil ?? expiresAt));
      return { caller };
    });
  };
}

/**
 * The subject is the token's `sub`; for a token of no user (client credentials) its client's id
 * (`client_id`, RFC 9068, else `azp`); for a token naming neither, the token itself, hashed: a caller of
 * its own, never one subject (and so one rate-limit bucket) shared by every such token.
 */
function callerOf(token: string, payload: JWTPayload): AuthenticatedCaller {
  const subject =
    payload.sub ?? stringClaim(payload.client_id) ?? stringClaim(payload.azp) ?? `token:${hash('sha256', token, 'base64url')}`;
  return { subject, scopes: grantedScopes(payload), claims: payload, token };
}

function stringClaim(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** RFC 9068 / 8693's `scope` (space-separated), or the `scp` array some servers issue instead. */
function grantedScopes(payload: JWTPayload): ReadonlySet<string> {
  if (typeof payload.scope === 'string') return new Set(payload.scope.split(' ').filter(Boolean));
  if (Array.isArray(payload.scp)) return new Set(payload.scp.filter((scope): scope is string => typeof scope === 'string'));
  return new Set();
}
