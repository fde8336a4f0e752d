import type { JWTPayload } from 'jose';

import type { AuthSettings } from '../config/gateway-config';
import type { TokenVerification } from './jwt-verifier';

/** How long one introspection request may take. */
const INTROSPECTION_TIMEOUT_MILLIS = 5_000;

/**
 * Opaque access tokens, asked about at the authorization server's RFC 7662 introspection endpoint
 * (`auth.introspection`), as the gateway's own confidential client. An answer counts only when it says
 * `active`, names the gateway's audience, has not expired and, when it names an issuer, one on the
 * allowlist. The endpoint comes from the configuration alone; the token goes only in the body.
 */
export class TokenIntrospection {
  private readonly credentials: string;

  constructor(
    private readonly auth: AuthSettings,
    private readonly introspection: NonNullable<AuthSettings['introspection']>,
    private readonly now: () => number = Date.now,
  ) {
    const { clientId, clientSecret } = introspection;
    // RFC 6749 §2.3.1: each part form-encoded before Basic.
    this.credentials = Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`).toString('base64');
  }

  async verify(token: string): Promise<TokenVerification> {
    let answer: Record<string, unknown>;
    try {
      const response = await fetch(this.introspection.endpoint, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          accept: 'application/json',
          authorization: `Basic ${this.credentials}`,
        },
        body: new URLSearchParams({ token, token_type_hint: 'access_token' }).toString(),
        redirect: 'error',
        signal: AbortSignal.timeout(INTROSPECTION_TIMEOUT_MILLIS),
      });
      if (!response.ok) return { refused: 'introspection_unavailable' };
      answer = (await response.json()) as Record<string, unknown>;
    } catch {
      return { refused: 'introspection_unavailable' };
    }
    if (typeof answer !== 'object' || answer === null || answer.active !== true) return { refused: 'inactive' };
    if (typeof answer.exp !== 'number' || answer.exp * 1000 + this.auth.clockSkewSeconds * 1000 <= this.now())
      return { refused: 'expired' };
    const issuers = this.auth.authorizationServers.map((server) => server.issuer);
    if (answer.iss !== undefined && !issuers.includes(answer.iss as string)) return { refused: 'unknown_issuer' };
    const audiences = Array.isArray(answer.aud) ? answer.aud : [answer.aud];
    if (!audiences.includes(this.auth.audience)) return { refused: 'wrong_audience' };
    return { payload: answer as JWTPayload };
  }
}

/** A JWS compact serialization has three dot-separated parts; an opaque token, as servers issue them, none. */
export function looksLikeJwt(token: string): boolean {
  const first = token.indexOf('.');
  return first > 0 && token.indexOf('.', first + 1) > first;
}
