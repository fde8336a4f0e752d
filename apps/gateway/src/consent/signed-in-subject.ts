import { createRemoteJWKSet, jwtVerify, type JWTVerifyGetKey } from 'jose';

import type { AuthSettings } from '../config/gateway-config';

/** How long one fetch of the issuer's keys may take. */
const JWKS_TIMEOUT_MILLIS = 5_000;

/**
 * Who signed in at the gateway's own issuer: the `sub` of the ID token its token endpoint answered the
 * sign-in's code with, once the token is checked as OpenID Connect Core §3.1.3.7 has it: signed with one
 * of the issuer's keys (the same `auth.authorizationServers` keys the gateway verifies callers' tokens
 * with, under `auth.algorithms`), issued by it, for the gateway's sign-in client, not expired, and carrying
 * the nonce this flow sent (a replayed ID token has another). Undefined when any of that fails.
 */
export class SignedInSubject {
  private readonly keys: JWTVerifyGetKey;

  constructor(
    private readonly issuer: string,
    private readonly clientId: string,
    private readonly auth: AuthSettings,
  ) {
    const server = auth.authorizationServers.find((each) => each.issuer === issuer);
    if (server === undefined) throw new Error(`consent.signIn.issuer ${issuer} is not one of auth.authorizationServers`);
    this.keys = createRemoteJWKSet(new URL(server.jwksUri), { timeoutDuration: JWKS_TIMEOUT_MILLIS });
  }

  async of(idToken: string, nonce: string): Promise<string | undefined> {
    const verified = await jwtVerify(idToken, this.keys, {
      issuer: this.issuer,
      audience: this.clientId,
      algorithms: this.auth.algorithms,
      clockTolerance: this.auth.clockSkewSeconds,
      requiredClaims: ['sub', 'exp', 'iat'],
    }).catch(() => undefined);
    if (verified === undefined || verified.payload.nonce !== nonce) return undefined;
    return verified.payload.sub;
  }
}
