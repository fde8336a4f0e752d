import type { AuthSettings } from '../config/gateway-config';

const WELL_KNOWN = '/.well-known/oauth-protected-resource';
/** RFC 6749 §3.3 `scope-token`: printable ASCII without space, `"` or `\`. */
const SCOPE_TOKEN = /^[\x21\x23-\x5b\x5d-\x7e]+$/;

/**
 * The gateway's side of the MCP authorization specification's discovery (RFC 9728): its metadata document,
 * served at the well-known path for the endpoint's path, and the `WWW-Authenticate` challenges that point
 * clients to it. Scope values are scope tokens (the configuration schema allows nothing a quoted string
 * would need escaped in).
 */
export class ProtectedResource {
  /** Where the gateway serves the document: the well-known prefix, then the endpoint's path. */
  readonly metadataPath: string;
  /** The document's absolute URL as clients reach it: on the audience's origin, with the audience's path. */
  readonly metadataUrl: string;
  readonly metadata: Readonly<Record<string, unknown>>;

  constructor(
    private readonly auth: AuthSettings,
    endpointPath: string,
  ) {
    this.metadataPath = `${WELL_KNOWN}${endpointPath}`;
    const audience = new URL(auth.audience);
    this.metadataUrl = `${audience.origin}${WELL_KNOWN}${audience.pathname === '/' ? '' : audience.pathname}`;
    this.metadata = {
      resource: auth.audience,
      authorization_servers: auth.authorizationServers.map((server) => server.issuer),
      bearer_methods_supported: ['header'],
      ...(auth.scopesSupported.length > 0 && { scopes_supported: auth.scopesSupported }),
    };
  }

  /** To a request without a token: where to learn how to get one, and what to ask for. */
  missingToken(): string {
    return this.challenge([], this.auth.scopesSupported);
  }

  /** To a token that is not valid here (RFC 6750 `invalid_token`). */
  invalidToken(): string {
    return this.challenge([['error', 'invalid_token']], this.auth.scopesSupported);
  }

  /**
   * To a valid token without the scopes a tool needs, so the client can step up (RFC 6750
   * `insufficient_scope`): the scopes to ask for are those the token grants, then those the tool needs
   * besides. The MCP authorization specification's recommended approach, so that a client asking for
   * exactly what the challenge names (SDK 1.x does) keeps what it had. A granted value that is no scope
   * token (RFC 6749 §3.3) is left out: it could not be written in the quoted parameter.
   */
  insufficientScope(needed: readonly string[], granted: ReadonlySet<string>): string {
    const scopes = new Set([...granted].filter((scope) => SCOPE_TOKEN.test(scope)));
    for (const scope of needed) scopes.add(scope);
    return this.challenge([['error', 'insufficient_scope']], [...scopes]);
  }

  private challenge(parameters: Array<[string, string]>, scopes: readonly string[]): string {
    const all: Array<[string, string]> = [...parameters, ['resource_metadata', this.metadataUrl]];
    if (scopes.length > 0) all.push(['scope', scopes.join(' ')]);
    return `Bearer ${all.map(([name, value]) => `${name}="${value}"`).join(', ')}`;
  }
}
