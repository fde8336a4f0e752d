import type { Logger } from '@toolmesh/transport-http/server';

import type { ServiceCredentials } from '../call/service-credentials';
import type { UserAuthorizationSettings } from '../config/consent-settings';
import type { GatewayConfig } from '../config/gateway-config';
import { MetadataCache } from '../consent/authorization-server-metadata';
import { type ConsentCompleted, type ConsentLinkFor, ConsentSeals } from '../consent/consent-links';
import { type ConsentPage, consentPages } from '../consent/consent-pages';
import { TokenRequests } from '../consent/outside-tokens';
import { SignedInSubject } from '../consent/signed-in-subject';
import { UserAuthorizations } from '../execution/user-authorizations';
import type { RefreshUserTokens, UserTokenVault } from '../user-tokens/user-token-vault';

/** The consent flow's parts (issue 48), for the call path, the vault and the HTTP front. */
export interface BuiltConsent {
  /** A caller's consent link for a bundle (the call path). */
  readonly linkFor: ConsentLinkFor;
  /** The refresh token grant at a bundle's outside server (the vault). */
  readonly refresh: RefreshUserTokens;
  /** The flow's browser pages, by path, storing into `vault` and telling `completed`. */
  pages(vault: UserTokenVault, completed: ConsentCompleted): ReadonlyMap<string, ConsentPage>;
  /** What the call path sends for each bundle that acts as its user: the vault's token, or a consent link. */
  callerAuthorizations(vault: UserTokenVault): UserAuthorizations;
}

/**
 * Built when a `consent` section is configured (load-config has checked `auth` is too). Its links are sealed
 * with `mcp.requestStateKey`; unset, with a key of this process's own (start-up warns of it), and a link
 * made by one replica does not open on another.
 */
export function buildConsent(config: GatewayConfig, credentials: ServiceCredentials, logger: Logger): BuiltConsent | undefined {
  const { consent, auth, mcp } = config;
  if (consent === undefined || auth === undefined) return undefined;
  const seals = new ConsentSeals(mcp.requestStateKey, consent);
  const metadata = new MetadataCache(consent.httpTimeoutMillis);
  const tokens = new TokenRequests(metadata, credentials, consent.httpTimeoutMillis);
  const bundles = new Map(
    mcp.bundles.flatMap((bundle): Array<[string, UserAuthorizationSettings]> =>
      bundle.userAuthorization ? [[bundle.name, bundle.userAuthorization]] : [],
    ),
  );
  const signedIn = new SignedInSubject(consent.signIn.issuer, consent.signIn.clientId, auth);
  return {
    linkFor: seals.linkFor,
    refresh: tokens.refresher(bundles),
    pages: (vault, completed) => consentPages({ consent, bundles, seals, metadata, tokens, signedIn, vault, completed, logger }),
    callerAuthorizations: (vault) =>
      new UserAuthorizations(bundles.keys(), { vault, consentLink: seals.linkFor, issuer: consent.signIn.issuer }),
  };
}
