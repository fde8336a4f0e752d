import type { IncomingMessage, ServerResponse } from 'node:http';

import { connectKeyValueStore } from '@toolmesh/registry';
import type { Logger } from '@toolmesh/transport-http/server';

import type { ServiceCredentials } from '../call/service-credentials';
import type { GatewayConfig } from '../config/gateway-config';
import { GatewayError, GatewayErrorCode } from '../errors/gateway-errors';
import { RedisSealedTokenStore } from '../user-tokens/redis-sealed-token-store';
import { revokeEndpoint } from '../user-tokens/revoke-endpoint';
import { MemorySealedTokenStore } from '../user-tokens/sealed-token-store';
import { SealedTokenVault } from '../user-tokens/sealed-token-vault';
import { TokenSeal } from '../user-tokens/token-seal';
import type { RefreshUserTokens, UserTokenVault } from '../user-tokens/user-token-vault';
import { parseVaultKeys } from '../user-tokens/vault-keys';

export interface UserTokenVaultParts {
  readonly vault: UserTokenVault;
  /** `POST /actuator/userTokens/revoke` on the management port. */
  readonly revoke: (req: IncomingMessage, res: ServerResponse, path: string) => boolean;
  close(): void;
}

/**
 * The vault of users' tokens (issue 48), built when some bundle has `userAuthorization` (load-config has
 * checked `consent` is set then): its key ring read now from `consent.vaultKey` (unusable: the start stops,
 * `gateway.vault_key_invalid`), its entries in Redis when `mcp.redis.url` is set, else in memory. A
 * refresh may take a metadata read and a token request, each within `consent.httpTimeoutMillis`: the lease
 * that holds the other replicas off lasts both, and a second more.
 */
export function buildUserTokenVault(
  config: GatewayConfig,
  credentials: ServiceCredentials,
  refresh: RefreshUserTokens,
  approvalToken: () => string | undefined,
  logger: Logger,
): UserTokenVaultParts | undefined {
  const { consent, mcp } = config;
  const bundles = mcp.bundles.filter((bundle) => bundle.userAuthorization !== undefined).map((bundle) => bundle.name);
  if (consent === undefined || bundles.length === 0) return undefined;
  const source = 'env' in consent.vaultKey ? `variable ${consent.vaultKey.env}` : `file ${consent.vaultKey.file}`;
  const text = credentials.read(consent.vaultKey);
  if (text === undefined)
    throw new GatewayError(GatewayErrorCode.VaultKeyInvalid, `consent.vaultKey: the ${source} cannot be read or is empty`);
  const { redis } = mcp;
  const store =
    redis.url === undefined
      ? new MemorySealedTokenStore()
      : new RedisSealedTokenStore(
          connectKeyValueStore({
            url: redis.url,
            connectTimeoutMillis: redis.commandTimeoutMillis * 5,
            commandTimeoutMillis: redis.commandTimeoutMillis,
          }),
          redis.keyPrefix,
        );
  const vault = new SealedTokenVault({
    seal: new TokenSeal(parseVaultKeys(text, `the ${source}`)),
    store,
    refresh,
    bundles,
    entryTtlMillis: consent.vaultTtlSeconds * 1000,
    refreshBeforeMillis: consent.refreshBeforeSeconds * 1000,
    leaseMillis: consent.httpTimeoutMillis * 2 + 1000,
    logger,
  });
  return { vault, revoke: revokeEndpoint(vault, approvalToken), close: () => store.close() };
}
