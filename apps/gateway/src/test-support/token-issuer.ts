import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import { exportJWK, generateKeyPair, type JWTPayload, type KeyLike, SignJWT } from 'jose';

import { AUTH_DEFAULTS } from '../config/defaults';
import type { AuthSettings } from '../config/gateway-config';

/**
 * A stand-in authorization server for the gateway's token checks: one RSA key published as a JWKS on
 * loopback (counting its fetches), and tokens signed with it, or with a key it never published.
 */
export interface TokenIssuer {
  readonly issuer: string;
  readonly jwksUri: string;
  /** A signed access token: the claims given over sensible defaults (this issuer, an hour's life); `typ` `at+jwt` unless given (null: none). */
  sign(claims: JWTPayload, options?: { kid?: string; key?: 'published' | 'unpublished'; typ?: string | null }): Promise<string>;
  /** The published public key as a JWK, for the tests that forge with it. */
  readonly publicJwk: Record<string, unknown>;
  jwksFetches(): number;
  close(): Promise<void>;
}

const KID = 'test-key-1';

export async function startTokenIssuer(audience: string): Promise<TokenIssuer> {
  const published = await generateKeyPair('RS256', { extractable: true });
  const unpublished = await generateKeyPair('RS256');
  const publicJwk = { ...(await exportJWK(published.publicKey)), kid: KID, alg: 'RS256', use: 'sig' };
  let fetches = 0;
  const server = createServer((req, res) => {
    if (req.url !== '/jwks') {
      res.writeHead(404).end();
      return;
    }
    fetches += 1;
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [publicJwk] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const issuer = `${base}/`;
  return {
    issuer,
    jwksUri: `${base}/jwks`,
    publicJwk,
    sign: (claims, { kid = KID, key = 'published', typ = 'at+jwt' } = {}) => {
      const signingKey: KeyLike = key === 'published' ? published.privateKey : unpublished.privateKey;
      const now = Math.floor(Date.now() / 1000);
      return new SignJWT({ iss: issuer, aud: audience, sub: 'user-1', iat: now, exp: now + 3600, ...claims })
        .setProtectedHeader({ alg: 'RS256', kid, ...(typ !== null && { typ }) })
        .sign(signingKey);
    },
    jwksFetches: () => fetches,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** The gateway's `auth` trusting `issuer` alone for `audience`, the rest its defaults: a spec spreads its own settings over it. */
export function authTrusting(issuer: TokenIssuer, audience: string): AuthSettings {
  return { ...AUTH_DEFAULTS, audience, authorizationServers: [{ issuer: issuer.issuer, jwksUri: issuer.jwksUri }] };
}
