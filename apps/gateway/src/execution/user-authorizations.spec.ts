import type { AuthenticatedCaller } from '@toolmesh/transport-http/server';

import type { CallerAuthorization } from '../call/user-consent';
import type { ConsentLinkFor } from '../consent/consent-links';
import { GatewayErrorCode } from '../errors/gateway-errors';
import { MemorySealedTokenStore } from '../user-tokens/sealed-token-store';
import { SealedTokenVault } from '../user-tokens/sealed-token-vault';
import { TokenSeal } from '../user-tokens/token-seal';
import { parseVaultKeys } from '../user-tokens/vault-keys';
import { UserAuthorizations } from './user-authorizations';

const ISSUER = 'https://login.example.com';
const SAAS_TOKEN = 'saas-access-token-of-alice';

const caller = (subject: string, iss = ISSUER): AuthenticatedCaller => ({
  subject,
  scopes: new Set(),
  claims: { sub: subject, iss },
  token: 'the-callers-token-to-the-gateway',
});

describe('a bundle that acts as its user (issue 48): the call path over the vault', () => {
  const vault = new SealedTokenVault({
    seal: new TokenSeal(parseVaultKeys('vault-key-0123456789abcdefghijklmnopqrstuv', 'VAULT_KEY_FILE')),
    store: new MemorySealedTokenStore(),
    refresh: () => Promise.reject(new Error('no refresh expected')),
    bundles: ['calendar'],
    entryTtlMillis: 3_600_000,
    refreshBeforeMillis: 60_000,
    leaseMillis: 5_000,
    logger: { info: () => undefined, warn: () => undefined },
  });
  const linked: Array<[string, string]> = [];
  const consentLink: ConsentLinkFor = (subject, bundle) => {
    linked.push([subject, bundle]);
    return { url: `https://gateway.example.com/consent?request=${linked.length}`, elicitationId: `e${linked.length}` };
  };
  const users = new UserAuthorizations(['calendar'], { vault, consentLink, issuer: ISSUER });
  const calendar = users.of('calendar') as CallerAuthorization;

  it('serves only the bundles with userAuthorization', () => {
    expect(users.of('tickets')).toBeUndefined();
  });

  it("asks a subject without tokens for consent with a link made for that subject and bundle, then carries the user's token, never the caller's", async () => {
    expect(await calendar.authorization(caller('alice'), 1_000)).toEqual({
      bundle: 'calendar',
      url: 'https://gateway.example.com/consent?request=1',
      elicitationId: 'e1',
    });
    expect(linked).toEqual([['alice', 'calendar']]);
    await vault.store('alice', 'calendar', { accessToken: SAAS_TOKEN, expiresAt: Date.now() + 3_600_000 });
    expect(await calendar.authorization(caller('alice'), 1_000)).toBe(`Bearer ${SAAS_TOKEN}`);
    // Another subject is not served Alice's token.
    expect(await calendar.authorization(caller('bob'), 1_000)).toMatchObject({ bundle: 'calendar', elicitationId: 'e2' });
  });

  it('refuses a caller of another issuer, even with the same subject, and an anonymous call, naming the issuer to sign in at', async () => {
    await vault.store('carol', 'calendar', { accessToken: 'carols-token' });
    const other = calendar.authorization(caller('carol', 'https://other-issuer.example.com'), 1_000);
    await expect(other).rejects.toMatchObject({ code: GatewayErrorCode.UserAuthorizationFailed });
    await expect(other).rejects.toThrow(`known only by a token of ${ISSUER}: sign in there`);
    await expect(other).rejects.not.toThrow('carols-token');
    await expect(calendar.authorization(undefined, 1_000)).rejects.toMatchObject({ code: GatewayErrorCode.UserAuthorizationFailed });
  });
});
