import {
  auth,
  type AuthOptions,
  computeScopeUnion,
  extractWWWAuthenticateParams,
  isStrictScopeSuperset,
  IssuerMismatchError,
} from '@modelcontextprotocol/client';
import { errorMessage } from '@toolmesh/protocol';
import type { AuthorizationChallenge, HttpAuthorization } from '@toolmesh/transport-http/client';

import { AgentError, AgentErrorCode } from '../../errors/agent-errors';
import { PROGRAM } from '../../program-name';
import type { HttpServerConfig } from '../server-config';
import { assertOAuthTransport, oauthFetch } from './auth-fetch';
import type { CredentialStore } from './credential-store';
import { LoopbackCallback } from './loopback-callback';
import type { OAuthSettings } from './oauth-settings';
import { ServerOAuthProvider } from './server-oauth-provider';
import type { AuthorizationUserAgent } from './user-agent';

/** What every server's OAuth shares in one command: where credentials live, who opens the browser, whether anyone may be asked. */
export interface OAuthHost {
  readonly store: CredentialStore;
  readonly userAgent: AuthorizationUserAgent;
  /**
   * Whether a sign-in may take the user to a browser during this command (a terminal, `mcp login`, the
   * conformance client's headless agent). Refreshing a token never needs to; without it a server that
   * needs a sign-in fails with `oauth.login_required`, naming `agent-cli mcp login`.
   */
  readonly interactive: boolean;
  /** How long a sign-in waits for the browser to come back; default five minutes. */
  readonly signInTimeoutMs?: number;
}

const DEFAULT_SIGN_IN_TIMEOUT_MS = 5 * 60_000;
/** An access token this close to its expiry is refreshed before it is sent, not after the 401. */
const EXPIRY_MARGIN_MS = 30_000;

/** An RFC 6750 challenge, or RFC 9449's DPoP one, which carries the same parameters. */
const BEARER_CHALLENGE = /^\s*(bearer|dpop)(\s|$)/i;

/** OAuth for each HTTP server configured with `oauth`, all of one command's sharing `host`; none for the others. */
export function serverOAuth(host: OAuthHost): (server: HttpServerConfig) => ServerOAuth | undefined {
  return (server) => (server.oauth ? new ServerOAuth(server.name, server.url, server.oauth, host) : undefined);
}

/**
 * OAuth for one remote MCP server (SPEC A19, ADR 0016): the transport's HttpAuthorization. It sends the
 * stored access token (refreshed first when it has expired), and on a 401 or a 403 `insufficient_scope`
 * runs the SDK's `auth()`: discovery from the challenge's `resource_metadata` or the well-known paths,
 * registration, authorization code with PKCE through the loopback listener, token exchange, the
 * issuer and resource checks. What is ours: when to run it, the scopes asked for (the configured ones,
 * those granted so far and the challenge's, as one union), the step-up limit, the redirect, the storage.
 * One flow runs at a time; requests refused meanwhile wait for it and then retry.
 */
export class ServerOAuth implements HttpAuthorization {
  private readonly provider: ServerOAuthProvider;
  private scope: string | undefined;
  private resourceMetadataUrl: URL | undefined;
  /** The scope of the last step-up: the same challenge again means no sign-in will satisfy the server. */
  private lastStepUpScope: string | undefined;
  private running: Promise<void> | undefined;
  private flows = 0;

  constructor(
    private readonly serverName: string,
    private readonly url: URL,
    private readonly settings: OAuthSettings,
    private readonly host: OAuthHost,
  ) {
    this.provider = new ServerOAuthProvider(serverName, url, settings, host.store, (authorizationUrl) => this.redirect(authorizationUrl));
    this.scope = computeScopeUnion(settings.scopes?.join(' '), this.provider.requestedScope());
  }

  /** Whether a sign-in or refresh has run in this process (for `mcp login` to tell apart a server that asked for none). */
  get authorized(): boolean {
    return this.flows > 0;
  }

  async authorization(): Promise<string | undefined> {
    const expiresAt = this.provider.tokensExpireAt();
    if (expiresAt !== undefined && expiresAt - EXPIRY_MARGIN_MS <= Date.now() && this.provider.tokens()?.refresh_token) {
      await this.once(() => this.authorize({}));
    }
    const token = this.provider.tokens()?.access_token;
    if (token === undefined) return undefined;
    // A token is never sent in the clear to another machine, whatever the configuration's URL says.
    assertOAuthTransport(this.url, `send a token to MCP server "${this.serverName}"`);
    return `Bearer ${token}`;
  }

  async challenged({ status, wwwAuthenticate }: AuthorizationChallenge): Promise<void> {
    const challenge = extractWWWAuthenticateParams(
      new Response(null, { headers: wwwAuthenticate ? { 'www-authenticate': wwwAuthenticate } : {} }),
    );
    if (challenge.resourceMetadataUrl) this.resourceMetadataUrl = challenge.resourceMetadataUrl;
    if (status === 401) {
      // Discovered again: the server may have moved to another authorization server (SEP-2352); and
      // the file read again, in case another agent-cli process has signed in since.
      this.provider.invalidateCredentials('discovery');
      this.provider.reload();
      // A server that protects itself otherwise (an API key in the headers) sends no Bearer challenge:
      // no sign-in can help it, and registering with its origin as an authorization server would be wrong.
      if (!BEARER_CHALLENGE.test(wwwAuthenticate ?? '') && this.provider.tokens() === undefined) {
        throw new AgentError(
          AgentErrorCode.OAuthFailed,
          `MCP server "${this.serverName}" answered HTTP 401 without an OAuth challenge (WWW-Authenticate: Bearer); check the credentials in its "headers", or set oauth: false`,
        );
      }
      this.scope = computeScopeUnion(this.scope, challenge.scope);
      return this.once(() => this.authorize({}));
    }
    const granted = this.provider.tokens()?.scope;
    const wanted = computeScopeUnion(this.scope, granted, challenge.scope);
    if (wanted !== undefined && wanted === this.lastStepUpScope) {
      throw new AgentError(
        AgentErrorCode.OAuthInsufficientScope,
        `MCP server "${this.serverName}" still refuses the request for want of scope after a sign-in with the scopes "${wanted}"`,
      );
    }
    this.lastStepUpScope = wanted;
    this.scope = wanted;
    // A refresh cannot widen a grant (RFC 6749 §6): a scope not yet granted needs a new authorization.
    return this.once(() => this.authorize({ forceReauthorization: isStrictScopeSuperset(wanted, granted) }));
  }

  /** Forgets the stored tokens (keeping the client registration), so the next refusal signs in anew: `mcp login`. */
  forgetTokens(): void {
    this.provider.invalidateCredentials('tokens');
  }

  /** Joins the flow under way, or starts one. */
  private once(flow: () => Promise<void>): Promise<void> {
    this.running ??= flow().finally(() => (this.running = undefined));
    return this.running;
  }

  private async authorize(extra: Pick<AuthOptions, 'forceReauthorization'>): Promise<void> {
    // Without a refresh token only the browser can help: said at once, before registering a client for nothing.
    if (!this.host.interactive && !this.provider.tokens()?.refresh_token) throw this.loginRequired();
    const state = ServerOAuthProvider.newState();
    const callback = await LoopbackCallback.listen(state, this.settings.callbackPort);
    this.provider.expectRedirect({ redirectUrl: callback.redirectUrl, state });
    const options: AuthOptions = {
      serverUrl: this.url,
      resourceMetadataUrl: this.resourceMetadataUrl,
      scope: this.scope,
      fetchFn: oauthFetch,
    };
    try {
      this.provider.saveRequestedScope(this.scope);
      // Only when the browser is next: a refresh must be asked for by the client its tokens were issued to.
      if (extra.forceReauthorization || !this.provider.tokens()?.refresh_token) this.provider.forgetRegistrationNarrowerThan(this.scope);
      if ((await auth(this.provider, { ...options, ...extra })) !== 'AUTHORIZED') {
        const { code, iss } = await this.waitFor(callback);
        if ((await auth(this.provider, { ...options, authorizationCode: code, iss })) !== 'AUTHORIZED') {
          throw new AgentError(AgentErrorCode.OAuthFailed, `signing in to MCP server "${this.serverName}" did not end with a token`);
        }
      }
      this.flows += 1;
    } catch (error) {
      throw this.failure(error);
    } finally {
      this.provider.expectRedirect(undefined);
      callback.close();
    }
  }

  private async redirect(authorizationUrl: URL): Promise<void> {
    if (!this.host.interactive) throw this.loginRequired();
    assertOAuthTransport(authorizationUrl, 'open the sign-in page');
    await this.host.userAgent.open(authorizationUrl, this.serverName);
  }

  /** Names the scopes when some are known: `mcp login` will ask for the same ones (they are stored). */
  private loginRequired(): AgentError {
    const scopes = this.scope ? ` with the scopes "${this.scope}"` : '';
    return new AgentError(
      AgentErrorCode.OAuthLoginRequired,
      `MCP server "${this.serverName}" needs a sign-in${scopes}: run ${PROGRAM} mcp login ${this.serverName}`,
    );
  }

  private async waitFor(callback: LoopbackCallback) {
    const timeoutMs = this.host.signInTimeoutMs ?? DEFAULT_SIGN_IN_TIMEOUT_MS;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new AgentError(
              AgentErrorCode.OAuthFailed,
              `the browser did not come back from signing in to MCP server "${this.serverName}" within ${timeoutMs / 1000} s`,
            ),
          ),
        timeoutMs,
      );
      timer.unref();
    });
    try {
      return await Promise.race([callback.response, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Our errors pass as they are; the SDK's get the server's name, and never a credential. */
  private failure(error: unknown): AgentError {
    if (error instanceof AgentError) return error;
    if (error instanceof IssuerMismatchError) {
      // The received value may be an attacker's (a mix-up): it is not repeated (RFC 9207 §2.4).
      const what =
        error.kind === 'metadata'
          ? "the authorization server's metadata names another issuer than its address"
          : error.received === undefined
            ? 'the sign-in response carries no issuer (iss), which the authorization server says it sends'
            : 'the sign-in response names another issuer than the authorization server (or one it does not advertise)';
      return new AgentError(AgentErrorCode.OAuthFailed, `signing in to MCP server "${this.serverName}" was refused: ${what}`, {
        cause: error,
      });
    }
    return new AgentError(
      AgentErrorCode.OAuthFailed,
      `signing in to MCP server "${this.serverName}" failed: ${this.redact(errorMessage(error))}`,
    );
  }

  private redact(text: string): string {
    const tokens = this.provider.tokens();
    const secrets = [
      tokens?.access_token,
      tokens?.refresh_token,
      this.settings.clientSecret,
      this.provider.clientInformation()?.client_secret,
    ];
    return secrets.reduce<string>((out, secret) => (secret && secret.length >= 8 ? out.split(secret).join('[redacted]') : out), text);
  }
}
