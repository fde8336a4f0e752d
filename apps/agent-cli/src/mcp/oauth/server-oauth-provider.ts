import { randomBytes } from 'node:crypto';

import type {
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthDiscoveryState,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from '@modelcontextprotocol/client';

import { AgentError, AgentErrorCode } from '../../errors/agent-errors';
import type { CredentialStore, StoredCredentials } from './credential-store';
import type { OAuthSettings } from './oauth-settings';

/** One sign-in attempt's redirect: where the browser comes back, and what proves it is ours. */
export interface RedirectTarget {
  readonly redirectUrl: string;
  readonly state: string;
}

/**
 * The SDK's OAuthClientProvider for one server, over the credential store: the SDK's `auth()` runs the
 * flow (discovery, registration, PKCE, token exchange, refresh, issuer checks) and keeps what it gets
 * here. The PKCE verifier and the discovery state live in memory only: both belong to one sign-in in
 * this process, and discovery is redone on every 401 so a server that moved to another authorization
 * server is followed. A pre-registered client from the configuration takes precedence over a stored
 * registration.
 */
export class ServerOAuthProvider implements OAuthClientProvider {
  private verifier: string | undefined;
  private discovery: OAuthDiscoveryState | undefined;
  private target: RedirectTarget | undefined;
  private loaded: StoredCredentials | undefined;

  constructor(
    private readonly serverName: string,
    private readonly url: URL,
    private readonly settings: OAuthSettings,
    private readonly store: CredentialStore,
    /** Takes the user to the authorization page; throws when nobody can be asked (not interactive). */
    private readonly redirect: (authorizationUrl: URL) => Promise<void>,
  ) {}

  /** Set before each `auth()` call that may redirect: the loopback listener's address and a fresh state. */
  expectRedirect(target: RedirectTarget | undefined): void {
    this.target = target;
  }

  static newState(): string {
    return randomBytes(16).toString('base64url');
  }

  get redirectUrl(): string {
    // Without a listener (a refresh) the SDK still needs an interactive provider's redirect URI shape.
    return this.target?.redirectUrl ?? `http://127.0.0.1:${this.settings.callbackPort ?? 0}/callback`;
  }

  get clientMetadataUrl(): string | undefined {
    return this.settings.clientMetadataUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'agent-cli (toolmesh)',
      redirect_uris: [this.redirectUrl],
      response_types: ['code'],
      // Declared here, not left to the SDK's registration default: its scope selection reads these to
      // ask for offline_access (a refresh token) where the authorization server offers it (SEP-2207).
      grant_types: ['authorization_code', 'refresh_token'],
      // A public native client (RFC 8252 §8.4): it can keep no secret, PKCE protects the code.
      token_endpoint_auth_method: 'none',
      ...(this.settings.scopes?.length ? { scope: this.settings.scopes.join(' ') } : {}),
    };
  }

  state(): string {
    if (!this.target) throw new Error('no sign-in redirect is expected');
    return this.target.state;
  }

  clientInformation(): StoredOAuthClientInformation | undefined {
    if (this.settings.clientId !== undefined) {
      return {
        client_id: this.settings.clientId,
        ...(this.settings.clientSecret !== undefined ? { client_secret: this.settings.clientSecret } : {}),
      };
    }
    return this.read().clientInformation;
  }

  saveClientInformation(clientInformation: StoredOAuthClientInformation): void {
    // The configured client is the configuration's; only a registration the flow made is kept.
    if (this.settings.clientId !== undefined) return;
    this.write({ ...this.read(), clientInformation });
  }

  /**
   * Forgets a registration this flow made whose `scope` (RFC 7591 §2) does not cover `scope`: the
   * authorization server may refuse that client any other scope (oidc-provider answers `invalid_scope`),
   * so a sign-in for more, a step-up, registers anew. The tokens are kept; a configured client and a
   * client ID metadata document, which name no scope, are never forgotten.
   */
  forgetRegistrationNarrowerThan(scope: string | undefined): void {
    if (scope === undefined || this.settings.clientId !== undefined) return;
    const registered = this.read().clientInformation;
    const registeredScope = registered !== undefined && 'scope' in registered ? registered.scope : undefined;
    if (registeredScope === undefined) return;
    const allowed = new Set(registeredScope.split(' '));
    if (scope.split(' ').some((wanted) => wanted !== '' && !allowed.has(wanted))) this.invalidateCredentials('client');
  }

  tokens(): StoredOAuthTokens | undefined {
    return this.read().tokens;
  }

  saveTokens(tokens: StoredOAuthTokens): void {
    this.write({ ...this.read(), tokens, savedAt: Date.now() });
  }

  /** The scopes asked for in the last sign-in (stored, so `mcp login` and a later step-up ask for them again). */
  requestedScope(): string | undefined {
    return this.read().scope;
  }

  saveRequestedScope(scope: string | undefined): void {
    if (scope !== this.read().scope) this.write({ ...this.read(), scope });
  }

  /** When the stored access token expires (ms since the epoch), if the server said. */
  tokensExpireAt(): number | undefined {
    const { tokens, savedAt } = this.read();
    return tokens?.expires_in !== undefined && savedAt !== undefined ? savedAt + tokens.expires_in * 1000 : undefined;
  }

  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    await this.redirect(authorizationUrl);
  }

  saveCodeVerifier(codeVerifier: string): void {
    this.verifier = codeVerifier;
  }

  codeVerifier(): string {
    if (this.verifier === undefined)
      throw new AgentError(AgentErrorCode.OAuthFailed, `no sign-in to MCP server "${this.serverName}" is under way`);
    return this.verifier;
  }

  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.discovery = state;
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.discovery;
  }

  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): void {
    if (scope === 'all' || scope === 'verifier') this.verifier = undefined;
    if (scope === 'all' || scope === 'discovery') this.discovery = undefined;
    if (scope === 'discovery' || scope === 'verifier') return;
    const stored = this.read();
    // Nothing stored, nothing to forget: no file is made for a server that never signed in.
    if (Object.keys(stored).length === 0) return;
    const { clientInformation, tokens, savedAt, scope: requested } = stored;
    const keep: StoredCredentials = {
      ...(requested !== undefined ? { scope: requested } : {}),
      ...(scope === 'tokens' && clientInformation ? { clientInformation } : {}),
      ...(scope === 'client' && tokens ? { tokens, savedAt } : {}),
    };
    this.write(keep);
  }

  /** Reads the file again at the next use: another agent-cli process may have signed in meanwhile. */
  reload(): void {
    this.loaded = undefined;
  }

  /** The file is read once and then kept: every request asks for the token, and that must not cost a read. */
  private read(): StoredCredentials {
    this.loaded ??= this.store.read(this.serverName, this.url);
    return this.loaded;
  }

  private write(credentials: StoredCredentials): void {
    this.store.write(this.serverName, this.url, credentials);
    this.loaded = credentials;
  }
}
