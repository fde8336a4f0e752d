import { errorMessage } from '@toolmesh/protocol';
import type { AuthenticatedCaller } from '@toolmesh/transport-http/server';
import type { Dispatcher } from 'undici';

import { GatewayError, GatewayErrorCode } from '../errors/gateway-errors';
import { type IssuedToken, requestToken } from './token-endpoint';

const TOKEN_EXCHANGE_GRANT = 'urn:ietf:params:oauth:grant-type:token-exchange';
const ACCESS_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:access_token';

export interface TokenExchangeSettings {
  /** The bundle, named in messages. */
  readonly bundle: string;
  /** The authorization server's token endpoint. */
  readonly tokenUrl: URL;
  readonly clientId: string;
  /** Read for each exchange: a rotated secret is used from the next exchange on. */
  readonly clientSecret: () => string | undefined;
  /** RFC 8707's resource indicator of the tool service (`resource`), and/or RFC 8693's logical `audience`. */
  readonly resource?: string;
  readonly audience?: string;
  readonly scope?: string;
  /** The deadline of one exchange, when the call's own is longer. */
  readonly timeoutMillis: number;
  /** Exchanged tokens kept at most (`auth.maxCachedTokens`, as many as verified caller tokens). */
  readonly maxEntries: number;
}

/**
 * A bundle's RFC 8693 token exchange (issue 26): the caller's verified access token, which is for the
 * gateway, exchanged at the authorization server for one whose audience is the bundle's tool service,
 * sent to it as `Authorization: Bearer`. Each caller token's exchange is kept until shortly before the new
 * token expires (at most `maxEntries`, the oldest dropped first), and concurrent calls with one token share
 * one exchange. A failed exchange is not kept: the next call tries again. Neither token is ever logged.
 */
export class TokenExchange {
  /** By caller token, in memory only, as the verified tokens are (verified-tokens.ts). */
  private readonly exchanged = new Map<string, IssuedToken>();
  private readonly exchanging = new Map<string, Promise<IssuedToken>>();

  constructor(
    private readonly settings: TokenExchangeSettings,
    private readonly dispatcher: Dispatcher,
    private readonly now: () => number = Date.now,
  ) {}

  /** The `Authorization` value for the caller's call to the tool service, within `timeoutMillis`. */
  async authorization(caller: AuthenticatedCaller | undefined, timeoutMillis: number): Promise<string> {
    const subjectToken = caller?.token;
    if (subjectToken === undefined) throw this.failure('the call carries no verified access token to exchange');
    const issued = this.exchanged.get(subjectToken);
    if (issued !== undefined && this.now() < issued.renewAt) return `Bearer ${issued.value}`;
    let pending = this.exchanging.get(subjectToken);
    if (pending === undefined) {
      pending = this.exchange(subjectToken, timeoutMillis)
        .then((token) => this.keep(subjectToken, token))
        .finally(() => this.exchanging.delete(subjectToken));
      this.exchanging.set(subjectToken, pending);
    }
    return `Bearer ${(await pending).value}`;
  }

  private keep(subjectToken: string, issued: IssuedToken): IssuedToken {
    this.exchanged.delete(subjectToken);
    if (this.exchanged.size >= this.settings.maxEntries) this.exchanged.delete(this.exchanged.keys().next().value as string);
    this.exchanged.set(subjectToken, issued);
    return issued;
  }

  private async exchange(subjectToken: string, timeoutMillis: number): Promise<IssuedToken> {
    const { tokenUrl, clientId, clientSecret, resource, audience, scope } = this.settings;
    const secret = clientSecret();
    if (secret === undefined) throw this.failure('its client secret (tokenExchange.clientSecret) cannot be read');
    const form = new URLSearchParams({
      grant_type: TOKEN_EXCHANGE_GRANT,
      subject_token: subjectToken,
      subject_token_type: ACCESS_TOKEN_TYPE,
      requested_token_type: ACCESS_TOKEN_TYPE,
    });
    if (resource !== undefined) form.set('resource', resource);
    if (audience !== undefined) form.set('audience', audience);
    if (scope !== undefined) form.set('scope', scope);
    const client = { tokenUrl, clientId, clientSecret: secret, timeoutMillis: Math.min(timeoutMillis, this.settings.timeoutMillis) };
    try {
      return await requestToken(client, form, this.dispatcher, this.now);
    } catch (error) {
      throw this.failure(errorMessage(error));
    }
  }

  private failure(why: string): GatewayError {
    const { bundle, tokenUrl } = this.settings;
    return new GatewayError(
      GatewayErrorCode.TokenExchangeFailed,
      `bundle ${bundle}: no token for its tool service from ${tokenUrl.origin}${tokenUrl.pathname}: ${why}`,
    );
  }
}
