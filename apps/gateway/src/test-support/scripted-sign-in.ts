import type {
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthDiscoveryState,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from '@modelcontextprotocol/client';

import { ScriptedBrowser } from './scripted-browser';

/**
 * A user who agrees at once, for an MCP SDK's own authorization code flow (SDK 1.x and v2 call the same
 * provider methods): kept in memory, it registers as a public client with a loopback redirect URI that
 * nothing listens on. `redirectToAuthorization` opens the authorization URL in a scripted browser, which
 * follows the authorization server's redirects through its interaction pages (with the cookies they set)
 * until they reach the redirect URI, whose parameters it keeps for the transport's `finishAuth`.
 */
export class ScriptedSignIn implements OAuthClientProvider {
  readonly redirectUrl = 'http://127.0.0.1:9/callback';
  /** Each authorization request the SDK made, in order. */
  readonly authorizations: URL[] = [];
  private client?: StoredOAuthClientInformation;
  private stored?: StoredOAuthTokens;
  private verifier = '';
  private discovery?: OAuthDiscoveryState;
  private callback?: URLSearchParams;

  constructor(private readonly name: string) {}

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.name,
      redirect_uris: [this.redirectUrl],
      response_types: ['code'],
      grant_types: ['authorization_code', 'refresh_token'],
      token_endpoint_auth_method: 'none',
    };
  }

  clientInformation(): StoredOAuthClientInformation | undefined {
    return this.client;
  }

  saveClientInformation(client: StoredOAuthClientInformation): void {
    this.client = client;
  }

  tokens(): StoredOAuthTokens | undefined {
    return this.stored;
  }

  saveTokens(tokens: StoredOAuthTokens): void {
    this.stored = tokens;
  }

  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier;
  }

  codeVerifier(): string {
    return this.verifier;
  }

  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.discovery = state;
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.discovery;
  }

  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    this.authorizations.push(authorizationUrl);
    const landed = await new ScriptedBrowser().open(authorizationUrl, this.redirectUrl);
    if (landed.status !== 0) throw new Error(`the authorization server answered HTTP ${landed.status} without a redirect`);
    this.callback = landed.url.searchParams;
  }

  /** The redirect URI's parameters of the last sign-in (`code`, `iss`, or the server's `error`), once. */
  takeCallback(): URLSearchParams {
    const callback = this.callback;
    if (callback === undefined) throw new Error('no sign-in reached the redirect URI');
    this.callback = undefined;
    if (callback.has('error'))
      throw new Error(`the authorization server refused: ${callback.get('error')} ${callback.get('error_description') ?? ''}`);
    return callback;
  }

  /** The scopes the access token in hand grants, from its claims. */
  grantedScopes(): string[] {
    const token = this.stored?.access_token;
    if (token === undefined) return [];
    const claims = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8')) as { scope?: string };
    return (claims.scope ?? '').split(' ').filter(Boolean);
  }
}
