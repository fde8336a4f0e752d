import { errorMessage, printable } from '@toolmesh/protocol';
import type { AuthorizationChallenge, HttpAuthorization } from '@toolmesh/transport-http/client';
import { type Dispatcher, request } from 'undici';

import { GatewayError, GatewayErrorCode } from '../errors/gateway-errors';

/** A token is fetched anew this long before it expires (at most half its life), so none lapses in flight. */
const RENEW_BEFORE_EXPIRY_MILLIS = 30_000;
/** A token response is small; a larger one is refused. */
const MAX_TOKEN_RESPONSE_BYTES = 64 * 1024;

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
  private token: { readonly value: string; readonly renewAt: number } | undefined;
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
    // RFC 6749 §2.3.1: each part form-encoded before the two are joined.
    const basic = Buffer.from(`${formEncoded(clientId)}:${formEncoded(secret)}`).toString('base64');
    let status: number;
    let text: string;
    try {
      const response = await request(tokenUrl, {
        method: 'POST',
        headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: form.toString(),
        dispatcher: this.dispatcher,
        signal: AbortSignal.timeout(timeoutMillis),
      });
      status = response.statusCode;
      text = await readBounded(response.body);
    } catch (error) {
      throw this.failure(`the token request failed: ${errorMessage(error)}`);
    }
    const answer = parseObject(text);
    if (status !== 200) {
      // The authorization server's own error code (invalid_client, invalid_scope, ...), never its description.
      const code = typeof answer?.error === 'string' ? ` (${printable(answer.error, 64)})` : '';
      throw this.failure(`the token endpoint answered HTTP ${status}${code}`);
    }
    const token = answer?.access_token;
    const type = answer?.token_type;
    if (typeof token !== 'string' || token === '' || (typeof type === 'string' && type.toLowerCase() !== 'bearer')) {
      throw this.failure('the token endpoint answered without a bearer access_token');
    }
    const lifeMillis = typeof answer?.expires_in === 'number' && answer.expires_in > 0 ? answer.expires_in * 1000 : undefined;
    // Without expires_in the token is kept until the server refuses it.
    const renewAt =
      lifeMillis === undefined ? Number.POSITIVE_INFINITY : this.now() + lifeMillis - Math.min(RENEW_BEFORE_EXPIRY_MILLIS, lifeMillis / 2);
    this.token = { value: token, renewAt };
    return token;
  }

  private failure(why: string): GatewayError {
    const { tokenUrl } = this.settings;
    return new GatewayError(GatewayErrorCode.UpstreamTokenFailed, `no access token from ${tokenUrl.origin}${tokenUrl.pathname}: ${why}`);
  }
}

function formEncoded(text: string): string {
  return new URLSearchParams({ t: text }).toString().slice(2);
}

async function readBounded(body: Dispatcher.ResponseData['body']): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_TOKEN_RESPONSE_BYTES) {
      body.destroy();
      throw new Error(`its answer is larger than ${MAX_TOKEN_RESPONSE_BYTES} bytes`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size).toString('utf8');
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
