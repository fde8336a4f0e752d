import { getGlobalDispatcher } from 'undici';

import { type IssuedToken, requestToken, TokenRequestRefused } from '../auth/token-endpoint';
import type { ServiceCredentials } from '../call/service-credentials';
import type { UserAuthorizationSettings } from '../config/consent-settings';
import type { CredentialSource } from '../config/gateway-config';
import { GatewayError, GatewayErrorCode } from '../errors/gateway-errors';
import type { RefreshUserTokens, UserTokens } from '../user-tokens/user-token-vault';
import type { MetadataCache } from './authorization-server-metadata';

/** The gateway as a confidential client of an authorization server: its own, or a bundle's outside one. */
export interface OAuthClient {
  readonly issuer: string;
  readonly clientId: string;
  readonly clientSecret: CredentialSource;
}

/**
 * Token requests at the token endpoint an issuer's metadata names, as the gateway's client there
 * (client_secret_basic, the secret read at each request so a rotated one is used). Errors say why
 * (unreachable, the server's `error` code), never a token or the secret.
 */
export class TokenRequests {
  constructor(
    private readonly metadata: MetadataCache,
    private readonly credentials: ServiceCredentials,
    private readonly timeoutMillis: number,
    private readonly now: () => number = Date.now,
  ) {}

  async grant(client: OAuthClient, form: Record<string, string>): Promise<IssuedToken> {
    const { tokenEndpoint } = await this.metadata.of(client.issuer);
    const clientSecret = this.credentials.read(client.clientSecret);
    if (clientSecret === undefined) throw new Error(`the client secret of ${client.clientId} at ${client.issuer} cannot be read`);
    const endpoint = { tokenUrl: tokenEndpoint, clientId: client.clientId, clientSecret, timeoutMillis: this.timeoutMillis };
    return requestToken(endpoint, new URLSearchParams(form), getGlobalDispatcher(), this.now);
  }

  /**
   * `RefreshUserTokens` for the vault: the refresh token grant (RFC 6749 §6) at the bundle's outside server.
   * A server that does not rotate refresh tokens answers without one: the one used stays good. A refusal
   * (400: `invalid_grant`, the user revoked the grant or it expired; 401: the client) is the vault's cue
   * to forget the tokens and ask for consent again; any other failure may pass, and is thrown as it is.
   */
  refresher(clients: ReadonlyMap<string, UserAuthorizationSettings>): RefreshUserTokens {
    return async (bundle, refreshToken) => {
      const client = clients.get(bundle);
      if (client === undefined) throw new Error(`bundle ${bundle} has no userAuthorization`);
      try {
        const issued = await this.grant(client, {
          grant_type: 'refresh_token',
          refresh_token: refreshToken,
          ...(client.resource !== undefined && { resource: client.resource }),
        });
        return userTokens(issued, refreshToken);
      } catch (error) {
        if (error instanceof TokenRequestRefused && (error.status === 400 || error.status === 401))
          throw new GatewayError(GatewayErrorCode.UserTokenRefreshRefused, `bundle ${bundle}: ${error.message}`);
        throw error;
      }
    };
  }
}

/** What the vault keeps of a token answer. */
export function userTokens(issued: IssuedToken, previousRefreshToken?: string): UserTokens {
  const refreshToken = issued.refreshToken ?? previousRefreshToken;
  return {
    accessToken: issued.value,
    ...(refreshToken !== undefined && { refreshToken }),
    ...(issued.expiresAt !== undefined && { expiresAt: issued.expiresAt }),
    ...(issued.scope !== undefined && { scope: issued.scope }),
  };
}
