import { type ManagementServer, startManagementServer } from '../management/health-server';
import { revokeEndpoint } from './revoke-endpoint';
import { MemorySealedTokenStore } from './sealed-token-store';
import { SealedTokenVault } from './sealed-token-vault';
import { TokenSeal } from './token-seal';
import { parseVaultKeys } from './vault-keys';

const OPERATOR_TOKEN = 'operator-token-for-the-management-port';
const SUBJECT = 'carol@example.com';

describe('POST /actuator/userTokens/revoke on the management port', () => {
  let server: ManagementServer;
  let token: string | undefined = OPERATOR_TOKEN;
  const vault = new SealedTokenVault({
    seal: new TokenSeal(parseVaultKeys('k'.repeat(40), 'VAULT_KEY')),
    store: new MemorySealedTokenStore(),
    refresh: () => Promise.reject(new Error('no refresh expected')),
    bundles: ['calendar', 'tickets'],
    entryTtlMillis: 3_600_000,
    refreshBeforeMillis: 60_000,
    leaseMillis: 5_000,
    logger: { info: () => undefined, warn: () => undefined },
  });
  const revoke = (body: unknown, headers: Record<string, string> = { authorization: `Bearer ${OPERATOR_TOKEN}` }) =>
    fetch(`${server.url}/actuator/userTokens/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });

  beforeAll(async () => {
    server = await startManagementServer(0, '127.0.0.1', {
      ready: () => true,
      toolBundles: () => ({}),
      refreshBundle: () => Promise.reject(new Error('not asked')),
      handlers: [revokeEndpoint(vault, () => token)],
    });
  });
  afterAll(() => server.close());

  it('needs the operator token: 401 without it or with another, 403 from a browser or with none configured, and nothing is revoked', async () => {
    await vault.store(SUBJECT, 'calendar', { accessToken: 'user-access' });
    const refusals = [
      await revoke({ subject: SUBJECT }, {}),
      await revoke({ subject: SUBJECT }, { authorization: 'Bearer not-the-token' }),
      await revoke({ subject: SUBJECT }, { authorization: `Bearer ${OPERATOR_TOKEN}`, origin: 'https://evil.example' }),
    ];
    expect(refusals.map((res) => res.status)).toEqual([401, 401, 403]);
    expect(refusals[0].headers.get('www-authenticate')).toBe('Bearer');
    expect(await refusals[0].json()).toMatchObject({
      error: 'unauthorized',
      message: expect.stringContaining('mcp.definitionPins.approvalToken'),
    });
    token = undefined;
    const off = await revoke({ subject: SUBJECT });
    expect([off.status, ((await off.json()) as { error: string }).error]).toEqual([403, 'approval_off']);
    token = OPERATOR_TOKEN;
    expect((await vault.usable(SUBJECT, 'calendar'))?.accessToken).toBe('user-access');
  });

  it("forgets one bundle's tokens, then all of the subject's, answering how many and never the subject", async () => {
    await vault.store(SUBJECT, 'calendar', { accessToken: 'cal' });
    await vault.store(SUBJECT, 'tickets', { accessToken: 'tix' });
    const one = await revoke({ subject: SUBJECT, bundle: 'tickets' });
    const text = await one.text();
    expect([one.status, JSON.parse(text)]).toEqual([200, { removed: 1 }]);
    expect(text).not.toContain('carol');
    expect(await vault.usable(SUBJECT, 'tickets')).toBeUndefined();
    const all = await revoke({ subject: SUBJECT });
    expect([all.status, await all.json()]).toEqual([200, { removed: 1 }]);
    expect(await vault.usable(SUBJECT, 'calendar')).toBeUndefined();
  });

  it('refuses a body without a subject, and any method but POST', async () => {
    const bad = await revoke({ bundle: 'calendar' });
    expect([bad.status, ((await bad.json()) as { error: string }).error]).toEqual([400, 'bad_request']);
    const get = await fetch(`${server.url}/actuator/userTokens/revoke`);
    expect([get.status, get.headers.get('allow')]).toEqual([405, 'POST']);
  });
});
