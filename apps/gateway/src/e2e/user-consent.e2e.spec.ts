import { type ConsentPeers, SAAS_TOOL, startConsentPeers } from '../test-support/consent-peers';
import { ScriptedBrowser } from '../test-support/scripted-browser';
import { type JsonRpcReply, startTestGateway, type TestGateway } from '../test-support/test-gateway';

/**
 * Issue 48, the consent flow end to end: a gateway whose `saas` bundle acts as the user, two authorization
 * servers that do not trust each other (the gateway's issuer and the SaaS's, both oidc-provider processes),
 * the SaaS API that accepts only the SaaS's tokens, and each user's own scripted browser. The callers here
 * declare no URL elicitation, so a call without consent is an `isError` result naming the link (the SDK
 * clients' -32042 and URL-mode input requests are consent-call-path.e2e's).
 */
/**
 * The SaaS's access tokens live 4 s and are refreshed 2 s before they expire, so that the refresh case sees
 * one lapse (a JWT's `exp` is in whole seconds, and the gateway learns `expires_in` after the token was made:
 * `consent.refreshBeforeSeconds` covers both).
 */
const SAAS_TOKEN_TTL_SECONDS = 4;

let peers: ConsentPeers;
let gateway: TestGateway;

beforeAll(async () => {
  peers = await startConsentPeers({ saasAccessTokenTtlSeconds: SAAS_TOKEN_TTL_SECONDS });
  gateway = await startTestGateway(
    peers.saas.issuer,
    (config) => {
      peers.configure(config);
      if (config.consent) config.consent.refreshBeforeSeconds = 2;
    },
    { env: peers.env },
  );
  // Calls wait for the catalogue's first load (the SaaS's OpenAPI document), as a balancer would.
  while ((await fetch(`${gateway.gateway.managementUrl}/actuator/health/readiness`)).status !== 200)
    await new Promise((resolve) => setTimeout(resolve, 50));
}, 60_000);
afterAll(async () => {
  await gateway?.stop();
  await peers?.stop();
});

const alice = new ScriptedBrowser('alice');
const bob = new ScriptedBrowser('bob');

async function callAs(token: string): Promise<{ link?: string; api?: { user: string; tokenId: string } }> {
  const reply: JsonRpcReply = await gateway.rpc('tools/call', { name: SAAS_TOOL, arguments: {} }, { authorization: `Bearer ${token}` });
  const text = reply.result?.content?.[0]?.text ?? JSON.stringify(reply);
  if (reply.result?.isError) {
    const link = /open (\S+) in your browser/.exec(text)?.[1];
    if (link === undefined) throw new Error(`an error without a consent link: ${text}`);
    return { link };
  }
  return { api: JSON.parse(text) as { user: string; tokenId: string } };
}

/** Where the refusal case finds alice's first link again, as a phisher who got hold of it would. */
let aliceLink: string;
let aliceToken: string;

it('a consent completed by the user it was made for stores their SaaS tokens; the next call reaches the SaaS API with its token', async () => {
  aliceToken = await peers.accessToken(alice);
  // The SaaS API takes only the SaaS's tokens: the caller's token to the gateway is refused there.
  expect((await fetch(peers.apiUrl, { headers: { authorization: `Bearer ${aliceToken}` } })).status).toBe(401);

  const first = await callAs(aliceToken);
  expect(first.link).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${peers.port}/consent\\?request=v2\\.`));
  aliceLink = first.link as string;

  const done = await alice.open(aliceLink);
  expect({ status: done.status, text: done.text }).toEqual({ status: 200, text: expect.stringContaining('Done') });

  const second = await callAs(aliceToken);
  expect(second.api).toEqual({ user: 'alice', tokenId: expect.any(String), events: ['alice: stand-up 09:30'] });
  expect(gateway.logs()).toContain('consent_completed bundle=saas');
});

it("refuses user B completing user A's consent link, storing nothing: A's tokens are untouched and B still has none", async () => {
  const bobToken = await peers.accessToken(bob);
  const phished = await bob.open(aliceLink);
  expect(phished.status).toBe(403);
  expect(phished.text).toContain('made for another user');
  expect(phished.text).toContain('gateway.consent_refused');
  expect(gateway.logs()).toMatch(/consent_refused step=signed-in reason=other_user/);

  expect((await callAs(aliceToken)).api?.user).toBe('alice');
  expect((await callAs(bobToken)).link).toBeDefined();
});

it('refuses an altered link, and a flow state brought back without the browser that started it', async () => {
  // One character of the sealed request changed for another, always: a replaced character equal to the one
  // it replaced (1 in 64) left the link as it was, and the test then saw it accepted.
  const at = aliceLink.length - 10;
  const altered = `${aliceLink.slice(0, at)}${aliceLink[at] === 'A' ? 'B' : 'A'}${aliceLink.slice(at + 1)}`;
  const page = await alice.open(altered);
  expect({ status: page.status, text: page.text }).toEqual({ status: 400, text: expect.stringContaining('was not made by this gateway') });

  // The sign-in's return, replayed from a browser without the flow's cookie (login CSRF), is refused.
  const started = await fetch(aliceLink, { redirect: 'manual' });
  const state = new URL(started.headers.get('location') ?? '').searchParams.get('state') ?? '';
  const replayed = await fetch(`http://127.0.0.1:${peers.port}/consent/signed-in?code=x&state=${encodeURIComponent(state)}`);
  expect(replayed.status).toBe(400);
  expect(await replayed.text()).toContain('gateway.consent_refused');
});

it('refreshes an expired SaaS access token with its refresh token, without a new consent', async () => {
  const before = (await callAs(aliceToken)).api;
  expect(before?.user).toBe('alice');
  // The token in the vault is due 2 s before it expires: each call until then uses it, the first after
  // refreshes it first. Never a consent link in between.
  const deadline = Date.now() + (SAAS_TOKEN_TTL_SECONDS + 5) * 1000;
  let after = before;
  while (after?.tokenId === before?.tokenId && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    const answer = await callAs(aliceToken);
    expect(answer.link).toBeUndefined();
    after = answer.api;
  }
  expect(after).toEqual({ user: 'alice', tokenId: expect.not.stringMatching(before?.tokenId ?? ''), events: expect.any(Array) });
});

it('writes no token to its logs', () => {
  expect(gateway.logs()).not.toMatch(/eyJ[A-Za-z0-9_-]{10,}/); // a JWT: the callers', the SaaS's, an ID token
});
