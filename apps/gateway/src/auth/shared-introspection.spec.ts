import { randomBytes } from 'node:crypto';

import { startOAuthServer, type TestOAuthServer } from '@toolmesh/test-peers/oauth-server';

import { AUTH_DEFAULTS } from '../config/defaults';
import { sharedIntrospection, type SharedIntrospectionLimits } from './shared-introspection';
import { TokenIntrospection } from './token-introspection';

/**
 * Introspection that random tokens cannot amplify (issue 43), against a real authorization server
 * (oidc-provider issuing opaque tokens) that counts the introspection requests it receives.
 */
const AUDIENCE = 'https://gateway.test.invalid/mcp';
const CLIENT = { id: 'gateway-and-machine', secret: 'introspection-secret-for-tests' };

let authorizationServer: TestOAuthServer;
let introspection: TokenIntrospection;

beforeAll(async () => {
  authorizationServer = await startOAuthServer(AUDIENCE, ['tools'], CLIENT, { opaque: true });
  introspection = new TokenIntrospection(
    {
      ...AUTH_DEFAULTS,
      audience: AUDIENCE,
      authorizationServers: [{ issuer: authorizationServer.issuer, jwksUri: `${authorizationServer.issuer}/jwks` }],
    },
    { endpoint: `${authorizationServer.issuer}/token/introspection`, clientId: CLIENT.id, clientSecret: CLIENT.secret },
  );
});
afterAll(async () => {
  await authorizationServer?.stop();
});

/** An opaque token the server never issued. */
const randomToken = () => randomBytes(24).toString('hex');

function introspect(limits: Partial<SharedIntrospectionLimits> = {}, now?: () => number) {
  return sharedIntrospection(
    (token) => introspection.verify(token),
    { maxRefusals: 100, refusalMillis: 10_000, maxInFlight: 64, ...limits },
    now,
  );
}

/** How many introspection requests `run` made the server receive. */
async function introspectionsDuring(run: () => Promise<unknown>): Promise<number> {
  const before = await authorizationServer.introspections();
  await run();
  return (await authorizationServer.introspections()) - before;
}

it('shares one introspection among concurrent checks of one unknown token', async () => {
  const verify = introspect();
  const token = randomToken();
  let verifications: unknown[] = [];
  const calls = await introspectionsDuring(async () => {
    verifications = await Promise.all(Array.from({ length: 20 }, () => verify(token)));
  });
  expect(calls).toBe(1);
  expect(verifications).toEqual(Array.from({ length: 20 }, () => ({ refused: 'inactive' })));
});

it('remembers a refusal for refusalMillis, then asks again', async () => {
  let clock = 1_000_000;
  const verify = introspect({ refusalMillis: 10_000 }, () => clock);
  const token = randomToken();
  expect(await introspectionsDuring(() => verify(token))).toBe(1);
  clock += 9_999;
  expect(await introspectionsDuring(async () => expect(await verify(token)).toEqual({ refused: 'inactive' }))).toBe(0);
  clock += 1;
  expect(await introspectionsDuring(async () => expect(await verify(token)).toEqual({ refused: 'inactive' }))).toBe(1);
});

it('remembers at most maxRefusals refused tokens, forgetting the oldest first', async () => {
  const verify = introspect({ maxRefusals: 3 });
  const tokens = Array.from({ length: 4 }, randomToken);
  const askedInTurn = async () => {
    for (const token of tokens) await verify(token);
  };
  expect(await introspectionsDuring(askedInTurn)).toBe(4);
  // The newest three are remembered; the first was forgotten when the fourth came.
  expect(await introspectionsDuring(() => Promise.all(tokens.slice(1).map((token) => verify(token))))).toBe(0);
  expect(await introspectionsDuring(() => verify(tokens[0]))).toBe(1);
});

it('refuses a token beyond maxInFlight introspections at once, without asking', async () => {
  const verify = introspect({ maxInFlight: 2 });
  let verifications: unknown[] = [];
  const calls = await introspectionsDuring(async () => {
    verifications = await Promise.all(Array.from({ length: 5 }, () => verify(randomToken())));
  });
  expect(calls).toBe(2);
  expect(verifications.filter((each) => JSON.stringify(each) === '{"refused":"introspection_unavailable"}')).toHaveLength(3);
});

it('lets a live token through, asked about once by concurrent checks', async () => {
  const res = await fetch(`${authorizationServer.issuer}/token`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${CLIENT.id}:${CLIENT.secret}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({ grant_type: 'client_credentials', scope: 'tools', resource: AUDIENCE }).toString(),
  });
  const { access_token: token } = (await res.json()) as { access_token: string };
  const verify = introspect();
  let verifications: Array<Awaited<ReturnType<typeof verify>>> = [];
  const calls = await introspectionsDuring(async () => {
    verifications = await Promise.all(Array.from({ length: 5 }, () => verify(token)));
  });
  expect(calls).toBe(1);
  for (const verification of verifications) expect(verification).toHaveProperty('payload.client_id', CLIENT.id);
});
