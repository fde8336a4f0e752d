import { createServer, type Server } from 'node:http';

import { exportJWK, generateKeyPair, type JWTPayload, SignJWT } from 'jose';

import { AUTH_DEFAULTS } from '../config/defaults';
import { SignedInSubject } from './signed-in-subject';

const ISSUER = 'https://login.example';
const CLIENT = 'toolmesh-consent';

let server: Server;
let sign: (claims: JWTPayload) => Promise<string>;
let signedIn: SignedInSubject;

/** The issuer's keys on loopback, as its JWKS URI serves them; ID tokens signed here with its private key. */
beforeAll(async () => {
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  const jwks = JSON.stringify({ keys: [{ ...(await exportJWK(publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' }] });
  server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(jwks));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const jwksUri = `http://127.0.0.1:${(server.address() as { port: number }).port}/jwks`;
  sign = (claims) =>
    new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: 'k1' }).setIssuedAt().setExpirationTime('5m').sign(privateKey);
  signedIn = new SignedInSubject(ISSUER, CLIENT, {
    ...AUTH_DEFAULTS,
    audience: 'https://mcp.example/mcp',
    authorizationServers: [{ issuer: ISSUER, jwksUri }],
  });
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

const good = { iss: ISSUER, aud: CLIENT, sub: 'alice', nonce: 'n-1' };

describe('who signed in for a consent (issue 48)', () => {
  it("is the ID token's subject, once its signature, issuer, audience and nonce are this flow's", async () => {
    expect(await signedIn.of(await sign(good), 'n-1')).toBe('alice');
  });

  it.each([
    ['a replayed token (another flow’s nonce)', good, 'n-2'],
    ['a token for another client', { ...good, aud: 'someone-else' }, 'n-1'],
    ['a token of another issuer', { ...good, iss: 'https://elsewhere.example' }, 'n-1'],
    ['a token without a subject', { ...good, sub: undefined }, 'n-1'],
  ])('is no one for %s', async (_, claims, nonce) => {
    expect(await signedIn.of(await sign(claims), nonce)).toBeUndefined();
  });

  it('is no one for a token signed with another key', async () => {
    const { privateKey } = await generateKeyPair('RS256');
    const forged = await new SignJWT(good)
      .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(privateKey);
    expect(await signedIn.of(forged, 'n-1')).toBeUndefined();
  });
});
