import { errorMessage } from '@toolmesh/protocol';
import type { AuthenticatedCaller } from '@toolmesh/transport-http/server';

import type { CallerAuthorization, ConsentRequired } from '../call/user-consent';
import type { ConsentLinkFor } from '../consent/consent-links';
import { GatewayError, GatewayErrorCode } from '../errors/gateway-errors';
import type { UserTokenVault } from '../user-tokens/user-token-vault';

/** What every bundle that acts as its user shares. */
interface UserAuthorizationDeps {
  readonly vault: UserTokenVault;
  readonly consentLink: ConsentLinkFor;
  /**
   * `consent.signIn.issuer`: where the person completing a consent signs in, and so the only issuer whose
   * callers' subjects name vault entries (a same-named `sub` from another trusted issuer is someone else).
   */
  readonly issuer: string;
}

/**
 * The bundles whose calls act as their user at an outside authorization server (`userAuthorization`, issue
 * 48), each a `CallerAuthorization` beside the token exchanges: the verified subject's usable token from
 * the vault (refreshed there when due) as `Bearer`, or, when it has none, the consent link made for that
 * subject and bundle. Keyed by the verified subject alone: the caller's token to the gateway never leaves it.
 */
export class UserAuthorizations {
  private readonly byBundle = new Map<string, CallerAuthorization>();

  constructor(bundles: Iterable<string>, deps: UserAuthorizationDeps) {
    for (const bundle of bundles) this.byBundle.set(bundle, new UserAuthorization(bundle, deps));
  }

  /** The authorization of the bundle (route) `routeToken`, when its calls act as the user. */
  of(routeToken: string): CallerAuthorization | undefined {
    return this.byBundle.get(routeToken);
  }
}

class UserAuthorization implements CallerAuthorization {
  constructor(
    private readonly bundle: string,
    private readonly deps: UserAuthorizationDeps,
  ) {}

  async authorization(caller: AuthenticatedCaller | undefined): Promise<string | ConsentRequired> {
    const { bundle, deps } = this;
    // The configuration requires auth for such a bundle; a caller it let through without a subject still gets no one's token.
    if (caller === undefined) throw this.failure('the call has no verified caller, and its tools act as their user');
    if (caller.claims.iss !== deps.issuer)
      throw this.failure(`its tools act as their user, known only by a token of ${deps.issuer}: sign in there and call again`);
    let tokens;
    try {
      tokens = await deps.vault.usable(caller.subject, bundle);
    } catch (error) {
      throw this.failure(`its users' tokens cannot be read now (${errorMessage(error)}); call again later`);
    }
    if (tokens !== undefined) return `Bearer ${tokens.accessToken}`;
    return { bundle, ...deps.consentLink(caller.subject, bundle) };
  }

  private failure(why: string): GatewayError {
    return new GatewayError(GatewayErrorCode.UserAuthorizationFailed, `bundle ${this.bundle}: ${why}`);
  }
}
