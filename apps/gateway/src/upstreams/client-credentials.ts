import { errorMessage } from '@toolmesh/protocol';
import type { AuthorizationChallenge, HttpAuthorization } from '@toolmesh/transport-http/client';
import type { Dispatcher } from 'undici';

import { type IssuedToken, requestToken } from '../auth/token-endpoint';
import { GatewayError, GatewayErrorCode } from '../errors/gateway-errors';

export interface ClientCredentialsSettings {
  /** The authorization server's token endpoint. */
  readonly tokenUrl: URL;
  readonly clientId: string;
  /** Read for each token request: a rotated secret is used from the next token on. */
  readonly clientSecret: () => string | undefined;
  readonly scope?: string;
  /** The resource indicator (RFC 8707) the token is asked for. */
  readonly resource?: string;
  /** The deadline of one token request. */
  readonly timeoutMillis: number;
}

/**
 * The gateway's own access token toward one MCP server (issue 28), from the OAuth client credentials grant
 * (RFC 6749 §4.4, the client authenticated with HTTP Basic): fetched when first needed, reused until
 * shortly before it expires, and fetched anew when the server answers 401 to it (the transport then sends
 * the request once more). Concurrent needs share one token request. Never the caller's token; the secret
 * and the tokens are in no message and no log line.
 */
export class ClientCredentialsToken implements HttpAuthorization {
  private token: IssuedToken | undefined;
  private fetching: Promise<string> | undefined;

  constructor(
    private readonly settings: ClientCredentialsSettings,
    private readonly dispatcher: Dispatcher,
    private readonly now: () => number = Date.now,
  ) {}

  async authorization(): Promise<string> {
    const token = this.token;
    return `Bearer ${token !== undefined && this.now() < token.renewAt ? token.value : await this.fetchShared()}`;
  }

  /** A 401: the token is no longer good (revoked, keys rotated), so a new one is fetched. A 403 asks for scope a client cannot step up to. */
  async challenged({ status }: AuthorizationChallenge): Promise<void> {
    if (status !== 401)
      throw this.failure('the MCP server asks for more scope (HTTP 403 insufficient_scope) than mcpServer.oauth.scope is granted');
    this.token = undefined;
    await this.fetchShared();
  }

  private fetchShared(): Promise<string> {
    this.fetching ??= this.fetchToken().finally(() => {
      this.fetching = undefined;
    });
    return this.fetching;
  }

  private async fetchToken(): Promise<string> {
    const { tokenUrl, clientId, clientSecret, scope, resource, timeoutMillis } = this.settings;
    const secret = clientSecret();
    if (secret === undefined) throw this.failure('its client secret (mcpServer.oauth.clientSecret) cannot be read');
    const form = new URLSearchParams({ grant_type: 'client_credentials' });
    if (scope !== undefined) form.set('scope', scope);
    if (resource !== undefined) form.set('resource', resource);
    try {
      this.token = await requestToken({ tokenUrl, clientId, clientSecret: secret, timeoutMillis }, form, this.dispatcher, this.now);
    } catch (error) {
      throw this.failure(errorMessage(error));
    }
    return this.token.value;
  }

  private failure(why: string): GatewayError {
    const { tokenUrl } = this.settings;
    return new GatewayError(GatewayErrorCode.UpstreamTokenFailed, `no access token from ${tokenUrl.origin}${tokenUrl.pathname}: ${why}`);
  }
}
