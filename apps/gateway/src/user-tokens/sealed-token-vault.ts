import { setTimeout as sleep } from 'node:timers/promises';

import type { Logger } from '@toolmesh/transport-http/server';

import { GatewayErrorCode } from '../errors/gateway-errors';
import type { SealedTokenStore } from './sealed-token-store';
import type { TokenSeal } from './token-seal';
import type { RefreshUserTokens, UserTokens, UserTokenVault } from './user-token-vault';

export interface SealedTokenVaultOptions {
  readonly seal: TokenSeal;
  readonly store: SealedTokenStore;
  /** The outside server's refresh (consent/); read at each refresh, as consent is built after the vault. */
  readonly refresh: RefreshUserTokens;
  /** The bundles with `userAuthorization`: a subject's revocation for all bundles visits each. */
  readonly bundles: readonly string[];
  /** How long an entry lives past its last write (`consent.vaultTtlSeconds`): past the refresh token's life. */
  readonly entryTtlMillis: number;
  /** An access token this close to its expiry is refreshed first (`consent.refreshBeforeSeconds`). */
  readonly refreshBeforeMillis: number;
  /** How long one replica's refresh may hold the others off; past it, another refreshes (its holder died). */
  readonly leaseMillis: number;
  readonly logger: Pick<Logger, 'info' | 'warn'>;
  readonly now?: () => number;
}

/** How often a replica waiting for another's refresh reads the entry again. */
const LEASE_POLL_MILLIS = 100;

type Found = { readonly tokens: UserTokens; readonly name: string };

/**
 * The user-token vault (issue 48; ADR 0031): a subject's tokens at an outside authorization server per
 * bundle, sealed (`TokenSeal`) in a store by keyed name. Reading one that an older key sealed seals it again
 * with the newest, so a key leaves the ring only once nothing needs it. An access token near its expiry is
 * refreshed once per subject and bundle at a time: concurrent calls of this replica share one refresh, and
 * the replicas take a short lease in the store, the others waiting for its result (a refresh token used
 * twice may be refused, or revoke its whole grant, where the server rotates refresh tokens). A refused
 * refresh forgets the entry: the user is asked for consent again. Logs name the bundle, never the subject
 * or a token.
 */
export class SealedTokenVault implements UserTokenVault {
  private readonly refreshing = new Map<string, Promise<UserTokens | undefined>>();
  private readonly now: () => number;

  constructor(private readonly options: SealedTokenVaultOptions) {
    this.now = options.now ?? Date.now;
  }

  async usable(subject: string, bundle: string): Promise<UserTokens | undefined> {
    const found = await this.read(subject, bundle);
    if (found === undefined || !this.expiring(found.tokens)) return found?.tokens;
    if (found.tokens.refreshToken === undefined) {
      if ((found.tokens.expiresAt ?? Infinity) > this.now()) return found.tokens; // near its end, but not past it
      await this.options.store.delete(found.name);
      return undefined;
    }
    let flight = this.refreshing.get(found.name);
    if (flight === undefined) {
      flight = this.refreshed(subject, bundle, found).finally(() => this.refreshing.delete(found.name));
      this.refreshing.set(found.name, flight);
    }
    return flight;
  }

  async store(subject: string, bundle: string, tokens: UserTokens): Promise<void> {
    const { seal, store } = this.options;
    await store.set(seal.nameOf(subject, bundle), await seal.seal(subject, bundle, tokens), this.ttlOf(tokens));
    // An entry an older key sealed would otherwise be found after this one is gone.
    for (const key of seal.ring.slice(1)) await store.delete(seal.nameOf(subject, bundle, key));
  }

  async revoke(subject: string, bundle?: string): Promise<number> {
    const { seal, store, bundles } = this.options;
    let removed = 0;
    for (const each of bundle === undefined ? bundles : [bundle]) {
      let found = false;
      for (const key of seal.ring) if (await store.delete(seal.nameOf(subject, each, key))) found = true;
      if (found) removed++;
    }
    return removed;
  }

  /** The entry under the newest key's name, else an older key's (then sealed again with the newest). */
  private async read(subject: string, bundle: string): Promise<Found | undefined> {
    const { seal, store, logger } = this.options;
    for (const key of seal.ring) {
      const name = seal.nameOf(subject, bundle, key);
      const sealed = await store.get(name);
      if (sealed === undefined) continue;
      const opened = await seal.open(sealed, subject, bundle);
      if ('refused' in opened) {
        // Left in place: a key missing from the ring by mistake must not cost the users their consent.
        logger.warn('user_token_unreadable', { bundle, reason: opened.refused });
        return undefined;
      }
      if (opened.key !== seal.newest) {
        await this.store(subject, bundle, opened.tokens);
        logger.info('user_token_resealed', { bundle });
      }
      return { tokens: opened.tokens, name: seal.nameOf(subject, bundle) };
    }
    return undefined;
  }

  private async refreshed(subject: string, bundle: string, found: Found): Promise<UserTokens | undefined> {
    const { store, leaseMillis } = this.options;
    const until = this.now() + leaseMillis;
    // Another replica refreshes it: its result is awaited, until its lease would have expired.
    while (!(await store.lease(found.name, leaseMillis))) {
      const now = await this.read(subject, bundle);
      if (now === undefined || !this.expiring(now.tokens)) return now?.tokens;
      if (this.now() > until) break;
      await sleep(LEASE_POLL_MILLIS);
    }
    try {
      // Read again under the lease: another replica may have refreshed it while this one waited.
      const current = await this.read(subject, bundle);
      if (current === undefined || !this.expiring(current.tokens) || current.tokens.refreshToken === undefined) return current?.tokens;
      return await this.refreshHeld(subject, bundle, current);
    } finally {
      await store.release(found.name);
    }
  }

  private async refreshHeld(subject: string, bundle: string, found: Found): Promise<UserTokens | undefined> {
    const { refresh, logger } = this.options;
    const old = found.tokens;
    let fresh: UserTokens;
    try {
      fresh = await refresh(bundle, old.refreshToken as string);
    } catch (error) {
      if ((error as { code?: unknown } | null)?.code !== GatewayErrorCode.UserTokenRefreshRefused) throw error;
      // Forgotten only if still what was refreshed: another replica's newer tokens are kept.
      const now = await this.read(subject, bundle);
      if (now?.tokens.refreshToken === old.refreshToken) await this.revoke(subject, bundle);
      logger.info('user_token_refresh_refused', { bundle });
      return undefined;
    }
    // A server may keep the refresh token (RFC 6749, 6) and the scope (5.1): the old ones stay then.
    const tokens: UserTokens = {
      ...fresh,
      ...(fresh.refreshToken === undefined && { refreshToken: old.refreshToken }),
      ...(fresh.scope === undefined && old.scope !== undefined && { scope: old.scope }),
    };
    await this.store(subject, bundle, tokens);
    logger.info('user_token_refreshed', { bundle });
    return tokens;
  }

  private expiring(tokens: UserTokens): boolean {
    return tokens.expiresAt !== undefined && tokens.expiresAt - this.options.refreshBeforeMillis <= this.now();
  }

  /** Kept while it can be refreshed; an access token alone only until it expires. */
  private ttlOf(tokens: UserTokens): number {
    const { entryTtlMillis } = this.options;
    if (tokens.refreshToken !== undefined || tokens.expiresAt === undefined) return entryTtlMillis;
    return Math.max(1, Math.min(entryTtlMillis, tokens.expiresAt - this.now()));
  }
}
