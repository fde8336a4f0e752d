import { createServer, type Server } from 'node:http';

import { readMetadata } from './authorization-server-metadata';

/** An issuer on loopback whose well-known documents are what each case puts in `documents`, by path. */
let server: Server;
let origin: string;
const documents = new Map<string, object>();

beforeAll(async () => {
  server = createServer((req, res) => {
    const document = documents.get(req.url ?? '');
    if (document === undefined) res.writeHead(404).end();
    else res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(document));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));
afterEach(() => documents.clear());

const metadataOf = (issuer: string, more: object = {}) => ({
  issuer,
  authorization_endpoint: `${issuer}/authorize`,
  token_endpoint: `${issuer}/token`,
  code_challenge_methods_supported: ['S256'],
  ...more,
});

describe('an outside authorization server’s metadata (issue 48)', () => {
  it('is read from RFC 8414’s well-known URL, inserted before the issuer’s path', async () => {
    documents.set('/.well-known/oauth-authorization-server/tenant-1', metadataOf(`${origin}/tenant-1`));
    const metadata = await readMetadata(`${origin}/tenant-1`, 2_000);
    expect(metadata.tokenEndpoint.href).toBe(`${origin}/tenant-1/token`);
  });

  it('falls back to OpenID Connect discovery', async () => {
    documents.set('/.well-known/openid-configuration', metadataOf(origin, { jwks_uri: `${origin}/jwks` }));
    const metadata = await readMetadata(origin, 2_000);
    expect({ authorize: metadata.authorizationEndpoint.href, jwks: metadata.jwksUri?.href }).toEqual({
      authorize: `${origin}/authorize`,
      jwks: `${origin}/jwks`,
    });
  });

  it.each([
    ['names another issuer (a mix-up)', { issuer: 'https://elsewhere.example' }, 'names another issuer'],
    ['does not offer PKCE with S256', { code_challenge_methods_supported: ['plain'] }, 'does not offer PKCE with S256'],
    ['says nothing of PKCE', { code_challenge_methods_supported: undefined }, 'does not offer PKCE with S256'],
    ['has no token endpoint', { token_endpoint: 'not a url' }, 'lacks an authorization_endpoint or token_endpoint'],
  ])('is refused when it %s', async (_, change, message) => {
    documents.set('/.well-known/oauth-authorization-server', metadataOf(origin, change));
    await expect(readMetadata(origin, 2_000)).rejects.toThrow(message);
  });

  it('is refused, saying where it looked, when there is none', async () => {
    await expect(readMetadata(origin, 2_000)).rejects.toThrow(
      /no authorization server metadata at .*oauth-authorization-server: not found; \/\.well-known\/openid-configuration: not found/,
    );
  });
});
