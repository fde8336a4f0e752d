import { createRemoteJWKSet, decodeJwt, type JWTPayload, jwtVerify, type JWTVerifyGetKey } from 'jose';

import type { AuthSettings } from '../config/gateway-config';
import { Audience } from './audience';

/** Why a token was refused: a short code for the log line and the metric, never anything of the token. */
export type TokenRefusalReason =
  | 'malformed'
  | 'unknown_issuer'
  | 'expired'
  | 'not_yet_valid'
  | 'issued_in_future'
  | 'too_old'
  | 'wrong_type'
  | 'wrong_audience'
  | 'wrong_issuer'
  | 'invalid_claims'
  | 'algorithm_refused'
  | 'bad_signature'
  | 'unknown_key'
  | 'keys_unavailable'
  | 'inactive'
  | 'introspection_unavailable';

/** `usableUntil`: when an accepted token stops being accepted (ms), if before its `exp` (`auth.maxTokenAgeSeconds`). */
export type TokenVerification = { readonly payload: JWTPayload; readonly usableUntil?: number } | { readonly refused: TokenRefusalReason };

/** Checks one access token: a JWT here, an opaque one by introspection (token-introspection.ts). */
export type TokenVerifier = (token: string) => Promise<TokenVerification>;

/** How long one fetch of an issuer's keys may take. */
const JWKS_TIMEOUT_MILLIS = 5_000;

/**
 * Verifies JWT access tokens with `jose` (ADR 0023): the issuer must be on the allowlist, the signature
 * made with one of that issuer's published keys under an allowed (asymmetric) algorithm, the audience
 * the gateway's canonical URI (RFC 8707), `exp` present and `exp` / `nbf` met within the clock skew, the
 * `typ` header one of `auth.tokenTypes` (so a logout, DPoP proof or other typed JWT signed by the same keys
 * is no access token here, RFC 8725 §3.11) and `iat` present, not in the future beyond the clock skew and
 * at most `auth.maxTokenAgeSeconds` ago (a token minted with a far `exp` still ages out).
 * Each issuer's key set is cached by jose; a token naming a key not in it makes one refetch, and no more
 * than one per `jwksRefetchCooldownMillis`, so unknown `kid`s cannot make the gateway hammer the issuer.
 */
export class JwtVerifier {
  private readonly keySets: ReadonlyMap<string, JWTVerifyGetKey>;
  private readonly tokenTypes: ReadonlySet<string>;
  /** Checked here, not by jose, whose check compares the URI's text exactly. */
  private readonly audience: Audience;

  constructor(private readonly settings: AuthSettings) {
    this.tokenTypes = new Set(settings.tokenTypes.map(normalizedType));
    this.audience = new Audience(settings.audience);
    this.keySets = new Map(
      settings.authorizationServers.map(({ issuer, jwksUri }) => [
        issuer,
        createRemoteJWKSet(new URL(jwksUri), {
          cooldownDuration: settings.jwksRefetchCooldownMillis,
          timeoutDuration: JWKS_TIMEOUT_MILLIS,
        }),
      ]),
    );
  }

  async verify(token: string): Promise<TokenVerification> {
    let issuer: string | undefined;
    try {
      // Unverified, only to choose the issuer's keys; everything is checked against them below.
      issuer = decodeJwt(token).iss;
    } catch {
      return { refused: 'malformed' };
    }
    const keys = issuer === undefined ? undefined : this.keySets.get(issuer);
    if (keys === undefined) return { refused: 'unknown_issuer' };
    try {
      const { payload, protectedHeader } = await jwtVerify(token, keys, {
        issuer,
        algorithms: this.settings.algorithms,
        clockTolerance: this.settings.clockSkewSeconds,
        // jose refuses an `iat` in the future, or older than this, only when given a maximum age.
        maxTokenAge: this.settings.maxTokenAgeSeconds,
        requiredClaims: ['exp', 'iat'],
      });
      if (!this.audience.isNamedBy(payload.aud)) return { refused: 'wrong_audience' };
      if (!this.tokenTypes.has(normalizedType(protectedHeader.typ ?? 'jwt'))) return { refused: 'wrong_type' };
      return { payload, usableUntil: ((payload.iat as number) + this.settings.maxTokenAgeSeconds) * 1000 };
    } catch (error) {
      return { refused: refusalReason(error) };
    }
  }
}

/** A media type's comparison form (RFC 7515 §4.1.9): no case, no `application/` prefix. */
function normalizedType(typ: string): string {
  const lower = typ.toLowerCase();
  return lower.startsWith('application/') ? lower.slice('application/'.length) : lower;
}

/** jose names its failures by `code` (and a failed claim by `claim`, and how by `reason`). */
function refusalReason(error: unknown): TokenRefusalReason {
  const { code, claim, reason } = (error ?? {}) as { code?: string; claim?: string; reason?: string };
  switch (code) {
    case 'ERR_JWT_EXPIRED':
      return claim === 'iat' ? 'too_old' : 'expired';
    case 'ERR_JWT_CLAIM_VALIDATION_FAILED':
      if (claim === 'iat' && reason === 'check_failed') return 'issued_in_future';
      return claim === 'aud' ? 'wrong_audience' : claim === 'iss' ? 'wrong_issuer' : claim === 'nbf' ? 'not_yet_valid' : 'invalid_claims';
    case 'ERR_JOSE_ALG_NOT_ALLOWED':
    case 'ERR_JOSE_NOT_SUPPORTED':
      return 'algorithm_refused';
    case 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED':
      return 'bad_signature';
    case 'ERR_JWKS_NO_MATCHING_KEY':
    case 'ERR_JWKS_MULTIPLE_MATCHING_KEYS':
      return 'unknown_key';
    case 'ERR_JWKS_TIMEOUT':
    case 'ERR_JWKS_INVALID':
      return 'keys_unavailable';
    case 'ERR_JWS_INVALID':
    case 'ERR_JWT_INVALID':
      return 'malformed';
    default:
      // A key set that could not be fetched at all (connection refused, an HTTP error) fails without a jose code.
      return 'keys_unavailable';
  }
}
