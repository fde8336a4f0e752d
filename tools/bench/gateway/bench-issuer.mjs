// An authorization server's part in the gateway benchmarks (cpu-per-call.mjs --compare-auth): one RSA key
// published as a JWKS on loopback and one access token signed with it, valid for the whole run, and the
// gateway configuration that accepts it with rate limits no run reaches: the work of `auth` and
// `rateLimits` on every call, never a refusal.
import { createServer } from 'node:http';

const AUDIENCE = 'http://bench.invalid/mcp';

export async function startBenchIssuer() {
  // Loaded here, by the runs that measure `auth`: the others, and cpu-per-call's --help, do without it.
  const { exportJWK, generateKeyPair, SignJWT } = await import('jose');
  const { publicKey, privateKey } = await generateKeyPair('RS256');
  const jwks = JSON.stringify({ keys: [{ ...(await exportJWK(publicKey)), kid: 'bench', alg: 'RS256', use: 'sig' }] });
  const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(jwks));
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  server.unref();
  const issuer = `http://127.0.0.1:${server.address().port}`;
  const token = await new SignJWT({ sub: 'bench-user', client_id: 'bench', scope: 'tools' })
    .setProtectedHeader({ alg: 'RS256', kid: 'bench' })
    .setIssuer(issuer)
    .setAudience(AUDIENCE)
    .setIssuedAt()
    .setExpirationTime('1d')
    .sign(privateKey);
  const yaml = `auth:
  audience: ${AUDIENCE}
  authorizationServers: [{ issuer: "${issuer}", jwksUri: "${issuer}/jwks" }]
  toolPolicies: [{ tools: "*", scopes: [tools] }]
  identityHeaders: { x-user-subject: sub }
rateLimits:
  perCaller: { points: 1000000000, durationSeconds: 60 }
  perTool: [{ tools: "*", points: 1000000000, durationSeconds: 60 }]
`;
  return { authorization: `Bearer ${token}`, yaml, issuer, audience: AUDIENCE };
}
