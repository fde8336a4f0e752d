import { connectKeyValueStore, type KeyValueConnection } from '@toolmesh/registry';
import { startRedis, type TestRedis } from '@toolmesh/test-peers/redis-server';

import { GatewayError, GatewayErrorCode } from '../errors/gateway-errors';
import { RedisSealedTokenStore } from './redis-sealed-token-store';
import { MemorySealedTokenStore } from './sealed-token-store';
import { SealedTokenVault, type SealedTokenVaultOptions } from './sealed-token-vault';
import { TokenSeal } from './token-seal';
import type { RefreshUserTokens, UserTokens } from './user-token-vault';
import { parseVaultKeys } from './vault-keys';

const OLD_KEY = 'old-key-0123456789abcdefghijklmnopqrstuv';
const NEW_KEY = 'new-key-0123456789abcdefghijklmnopqrstuv';
const ALICE = 'alice@example.com';
const BOB = 'bob@example.com';
const HOUR = 3_600_000;

describe('the user-token vault over a real redis-server', () => {
  let redis: TestRedis;
  let raw: KeyValueConnection;
  let prefix = 0;
  const logged: unknown[] = [];
  const logger = { info: (...line: unknown[]) => logged.push(line), warn: (...line: unknown[]) => logged.push(line) };
  const closers: Array<() => void> = [];

  /** A vault over its own key prefix of the shared redis-server; `keys` newest first. */
  function vault(keys: string[], options: Partial<SealedTokenVaultOptions> = {}) {
    return new SealedTokenVault({
      seal: new TokenSeal(parseVaultKeys(keys.join('\n'), 'VAULT_KEY_FILE')),
      store: redisStore(),
      refresh: () => Promise.reject(new Error('no refresh expected')),
      bundles: ['calendar', 'tickets'],
      entryTtlMillis: 90 * 24 * HOUR,
      refreshBeforeMillis: 60_000,
      leaseMillis: 5_000,
      logger,
      ...options,
    });
  }
  function redisStore(): RedisSealedTokenStore {
    const connection = connectKeyValueStore({ url: redis.url, connectTimeoutMillis: 1_000, commandTimeoutMillis: 1_000 });
    closers.push(() => connection.close());
    return new RedisSealedTokenStore(connection, `p${prefix}`);
  }
  const tokens = (access: string, extra: Partial<UserTokens> = {}): UserTokens => ({
    accessToken: access,
    refreshToken: `refresh-of-${access}`,
    expiresAt: Date.now() + HOUR,
    scope: 'calendar.read',
    ...extra,
  });
  /** Every key and value under the test's prefix, as Redis holds them. */
  async function everything(keyPrefix: string): Promise<string> {
    const keys = (await redis.keys()).filter((key) => key.startsWith(`${keyPrefix}:`));
    return [...keys, ...(await Promise.all(keys.map((key) => rawValue(key))))].join('\n');
  }
  const rawValue = async (key: string) => (await raw.get(key)) ?? '';

  beforeAll(async () => {
    redis = await startRedis();
    raw = connectKeyValueStore({ url: redis.url, connectTimeoutMillis: 1_000, commandTimeoutMillis: 1_000 });
  });
  beforeEach(() => {
    prefix++;
    logged.length = 0;
  });
  afterEach(() => closers.splice(0).forEach((close) => close()));
  afterAll(async () => {
    raw?.close();
    await redis?.kill();
  });

  it('keeps only ciphertext in Redis: no key or value carries a token or the subject', async () => {
    const one = vault([NEW_KEY]);
    const stored = tokens('access-AAAA-1111', { refreshToken: 'refresh-BBBB-2222' });
    await one.store(ALICE, 'calendar', stored);
    expect(await one.usable(ALICE, 'calendar')).toEqual(stored);
    expect(await one.usable(BOB, 'calendar')).toBeUndefined();
    const held = await everything(`p${prefix}`);
    expect(held).toMatch(/^p\d+:user-tokens:v1:/); // there is an entry to scan
    for (const secret of ['access-AAAA-1111', 'refresh-BBBB-2222', ALICE, 'alice', 'calendar.read']) expect(held).not.toContain(secret);
    expect(JSON.stringify(logged)).not.toMatch(/alice|access-AAAA|refresh-BBBB/);
  });

  it('opens an entry an older key sealed after a rotation, and seals it again with the newest', async () => {
    await vault([OLD_KEY]).store(ALICE, 'calendar', tokens('access-old'));
    const before = await everything(`p${prefix}`);
    const rotated = vault([NEW_KEY, OLD_KEY]);
    expect((await rotated.usable(ALICE, 'calendar'))?.accessToken).toBe('access-old');
    expect(await everything(`p${prefix}`)).not.toEqual(before); // moved under the newest key's name
    // Sealed again: the ring without the old key still opens it.
    expect((await vault([NEW_KEY]).usable(ALICE, 'calendar'))?.accessToken).toBe('access-old');
    expect(await vault([OLD_KEY]).usable(ALICE, 'calendar')).toBeUndefined();
  });

  it("refuses an entry copied under another subject's name, and leaves it be", async () => {
    const one = vault([NEW_KEY]);
    await one.store(BOB, 'calendar', tokens('access-bob'));
    await one.store(ALICE, 'calendar', tokens('access-alice'));
    const seal = new TokenSeal(parseVaultKeys(NEW_KEY, 'VAULT_KEY_FILE'));
    const key = (subject: string) => `p${prefix}:user-tokens:v1:${seal.nameOf(subject, 'calendar')}`;
    await redis.set(key(ALICE), await rawValue(key(BOB)));
    expect(await one.usable(ALICE, 'calendar')).toBeUndefined();
    expect(logged).toContainEqual(['user_token_unreadable', { bundle: 'calendar', reason: 'other_subject' }]);
    expect((await one.usable(BOB, 'calendar'))?.accessToken).toBe('access-bob');
  });

  it('refreshes an expiring token once for concurrent callers, across two replicas, and keeps the refresh token the server kept', async () => {
    let refreshes = 0;
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const refresh: RefreshUserTokens = async (bundle, refreshToken) => {
      refreshes++;
      expect([bundle, refreshToken]).toEqual(['calendar', 'refresh-of-access-1']);
      await held;
      return { accessToken: 'access-2', expiresAt: Date.now() + HOUR };
    };
    // The refresh ends once the replica without the lease has found it taken, so that one waits for the other's result.
    const waiting = redisStore();
    const lease = waiting.lease.bind(waiting);
    waiting.lease = async (name, millis) => {
      const taken = await lease(name, millis);
      if (!taken) release();
      return taken;
    };
    const replicaOne = vault([NEW_KEY], { refresh });
    const replicaTwo = vault([NEW_KEY], { refresh, store: waiting });
    await replicaOne.store(ALICE, 'calendar', tokens('access-1', { expiresAt: Date.now() + 30_000 })); // within the 60 s skew
    const first = replicaOne.usable(ALICE, 'calendar');
    while (refreshes === 0) await new Promise((resolve) => setImmediate(resolve)); // replica one holds the lease
    const calls = [first, replicaOne.usable(ALICE, 'calendar'), replicaTwo.usable(ALICE, 'calendar'), replicaTwo.usable(ALICE, 'calendar')];
    const answers = await Promise.all(calls);
    expect(refreshes).toBe(1);
    for (const answer of answers)
      expect(answer).toMatchObject({ accessToken: 'access-2', refreshToken: 'refresh-of-access-1', scope: 'calendar.read' });
    expect((await replicaTwo.usable(ALICE, 'calendar'))?.accessToken).toBe('access-2');
    expect(logged).toContainEqual(['user_token_refreshed', { bundle: 'calendar' }]);
  });

  it('forgets the tokens when the refresh is refused, and keeps them when it merely failed', async () => {
    let answer: Error = new Error('token endpoint unreachable');
    const one = vault([NEW_KEY], { refresh: () => Promise.reject(answer) });
    await one.store(ALICE, 'calendar', tokens('access-1', { expiresAt: Date.now() - 1 }));
    await expect(one.usable(ALICE, 'calendar')).rejects.toThrow('token endpoint unreachable');
    answer = new GatewayError(GatewayErrorCode.UserTokenRefreshRefused, 'invalid_grant');
    expect(await one.usable(ALICE, 'calendar')).toBeUndefined();
    expect(await one.revoke(ALICE, 'calendar')).toBe(0); // already forgotten
    expect(logged).toContainEqual(['user_token_refresh_refused', { bundle: 'calendar' }]);
  });

  it('revokes one bundle or all of a subject, answering how many, and no other subject', async () => {
    const one = vault([NEW_KEY, OLD_KEY]);
    await vault([OLD_KEY]).store(ALICE, 'calendar', tokens('a-cal')); // sealed before a rotation: revoked all the same
    await one.store(ALICE, 'tickets', tokens('a-tix'));
    await one.store(BOB, 'calendar', tokens('b-cal'));
    expect(await one.revoke(ALICE, 'tickets')).toBe(1);
    expect(await one.usable(ALICE, 'tickets')).toBeUndefined();
    expect(await one.revoke(ALICE)).toBe(1);
    expect(await one.usable(ALICE, 'calendar')).toBeUndefined();
    expect((await one.usable(BOB, 'calendar'))?.accessToken).toBe('b-cal');
  });

  it('fails a read, a store and a revoke with gateway.user_tokens_unavailable when Redis does not answer, naming no subject', async () => {
    const gone = connectKeyValueStore({ url: 'redis://127.0.0.1:9', connectTimeoutMillis: 200, commandTimeoutMillis: 200 });
    closers.push(() => gone.close());
    const one = vault([NEW_KEY], { store: new RedisSealedTokenStore(gone, 'gone') });
    const attempts = [() => one.usable(ALICE, 'calendar'), () => one.store(ALICE, 'calendar', tokens('a')), () => one.revoke(ALICE)];
    for (const attempt of attempts) {
      const error = await attempt().then(
        () => undefined,
        (failure: unknown) => failure as GatewayError,
      );
      expect(error).toMatchObject({ code: GatewayErrorCode.UserTokensUnavailable });
      expect(error?.message).not.toContain('alice');
    }
  });

  it('serves one replica from memory alike, an access token alone until it expires', async () => {
    let now = 1_000_000;
    const memory = new SealedTokenVault({
      seal: new TokenSeal(parseVaultKeys(NEW_KEY, 'VAULT_KEY_FILE')),
      store: new MemorySealedTokenStore(() => now),
      refresh: () => Promise.reject(new Error('no refresh expected')),
      bundles: ['calendar'],
      entryTtlMillis: HOUR,
      refreshBeforeMillis: 60_000,
      leaseMillis: 5_000,
      logger,
      now: () => now,
    });
    await memory.store(ALICE, 'calendar', { accessToken: 'only-access', expiresAt: now + 30_000 });
    expect((await memory.usable(ALICE, 'calendar'))?.accessToken).toBe('only-access');
    now += 30_001;
    expect(await memory.usable(ALICE, 'calendar')).toBeUndefined();
  });

  it('refuses a key ring it cannot use, naming the setting', () => {
    expect(() => parseVaultKeys('# none\n\n', 'VAULT_KEY_FILE')).toThrow(/consent.vaultKey: VAULT_KEY_FILE holds no key/);
    expect(() => parseVaultKeys('short', 'VAULT_KEY_FILE')).toThrow(/key 1 is shorter than 32 characters/);
    expect(() => parseVaultKeys(`${NEW_KEY}\n${NEW_KEY}`, 'VAULT_KEY_FILE')).toThrow(/the same key twice/);
  });
});
