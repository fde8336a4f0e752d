import type { CredentialSource, GatewayConfig } from './gateway-config';

/**
 * A bundle whose calls act as the user at an outside authorization server (issue 48): each caller's own
 * token there, got once by consent (authorization code with PKCE) and kept in the vault.
 */
export interface UserAuthorizationSettings {
  /** The outside server's issuer: its metadata is read from there (RFC 8414, else OpenID Connect discovery). */
  issuer: string;
  /** The gateway's client at that server (registered there, with `<consent.publicUrl><consent.path>/callback` as its redirect URI). */
  clientId: string;
  /** Where its client secret is (sent with HTTP Basic, client_secret_basic). */
  clientSecret: CredentialSource;
  /** The scopes the user is asked to grant. */
  scopes: string[];
  /** The resource indicator (RFC 8707) the tokens are asked for; unset, none is sent. */
  resource?: string;
}

/** The gateway's client at its own issuer, with which the person opening a consent link signs in. */
export interface ConsentSignInSettings {
  /** One of `auth.authorizationServers`: the subject signed in is compared with the caller's. */
  issuer: string;
  clientId: string;
  clientSecret: CredentialSource;
}

/** The consent flow and the vault of users' tokens (issue 48; docs/gateway.md, "Tools that act as the user"). */
export interface ConsentSettings {
  /** The gateway's public base URL as a browser reaches it (`https://gateway.example.com`): consent links and redirect URIs start with it. */
  publicUrl: string;
  /** The path of the consent endpoints on the MCP port: the link itself, `<path>/signed-in` and `<path>/callback`. */
  path: string;
  signIn: ConsentSignInSettings;
  /** The vault's key: a file or variable holding one key, or several, one a line, the first sealing (rotation). */
  vaultKey: CredentialSource;
  /** How long a consent link may be opened after the call that made it. */
  linkTtlSeconds: number;
  /** How long a person has between opening the link and coming back from either authorization server. */
  flowTtlSeconds: number;
  /** A user's access token is refreshed this long before it expires. */
  refreshBeforeSeconds: number;
  /** How long the vault keeps a user's tokens after they were last stored (past the refresh token's life). */
  vaultTtlSeconds: number;
  /** The deadline of one request to an authorization server (metadata, token). */
  httpTimeoutMillis: number;
}

/** What a `consent` section leaves out. */
export const CONSENT_DEFAULTS = {
  path: '/consent',
  linkTtlSeconds: 600,
  flowTtlSeconds: 600,
  refreshBeforeSeconds: 60,
  vaultTtlSeconds: 7_776_000,
  httpTimeoutMillis: 5_000,
};

const httpUrl = { type: 'string', pattern: '^https?://[^#?]+$' };
const secret = {
  type: 'object',
  additionalProperties: false,
  properties: { env: { type: 'string', minLength: 1 }, file: { type: 'string', minLength: 1 } },
  oneOf: [{ required: ['env'] }, { required: ['file'] }],
};

/** `mcp.bundles[].userAuthorization`'s JSON Schema. */
export const userAuthorizationSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['issuer', 'clientId', 'clientSecret', 'scopes'],
  properties: {
    issuer: httpUrl,
    clientId: { type: 'string', minLength: 1 },
    clientSecret: secret,
    scopes: { type: 'array', minItems: 1, items: { type: 'string', pattern: '^[\\x21\\x23-\\x5B\\x5D-\\x7E]{1,128}$' } },
    resource: { type: 'string', minLength: 1 },
  },
} as const;

/** The `consent` section's JSON Schema; what it cannot say is `consentProblem`'s. */
export const consentSchema = {
  type: 'object',
  additionalProperties: false,
  required: [
    'publicUrl',
    'path',
    'signIn',
    'vaultKey',
    'linkTtlSeconds',
    'flowTtlSeconds',
    'refreshBeforeSeconds',
    'vaultTtlSeconds',
    'httpTimeoutMillis',
  ],
  properties: {
    publicUrl: httpUrl,
    path: { type: 'string', pattern: '^/[A-Za-z0-9._~/-]*[A-Za-z0-9._~-]$' },
    signIn: {
      type: 'object',
      additionalProperties: false,
      required: ['issuer', 'clientId', 'clientSecret'],
      properties: { issuer: httpUrl, clientId: { type: 'string', minLength: 1 }, clientSecret: secret },
    },
    vaultKey: secret,
    linkTtlSeconds: { type: 'integer', minimum: 30, maximum: 86_400 },
    flowTtlSeconds: { type: 'integer', minimum: 30, maximum: 3_600 },
    refreshBeforeSeconds: { type: 'integer', minimum: 0, maximum: 3_600 },
    vaultTtlSeconds: { type: 'integer', minimum: 3_600, maximum: 34_560_000 },
    httpTimeoutMillis: { type: 'integer', minimum: 100, maximum: 60_000 },
  },
} as const;

/**
 * What is wrong with the consent settings, if anything. A user's token is keyed by the caller's verified
 * subject, so a bundle with `userAuthorization` needs `auth` and a `consent` section. (Consent links are
 * sealed with `mcp.requestStateKey`: unset, with a key of the process's own, which start-up warns of.)
 */
export function consentProblem({ auth, consent, mcp }: GatewayConfig): string | undefined {
  const bundle = mcp.bundles.find((each) => each.userAuthorization !== undefined);
  if (bundle === undefined) {
    return consent === undefined
      ? undefined
      : 'consent is set but no bundle has userAuthorization: give one a userAuthorization, or remove consent';
  }
  if (auth === undefined)
    return `mcp.bundles ${bundle.name}: userAuthorization needs caller authentication (auth): a user's tokens are kept by the caller's verified subject, which an anonymous call has not; configure auth, or remove userAuthorization`;
  if (consent === undefined)
    return `mcp.bundles ${bundle.name}: userAuthorization needs a consent section: consent.publicUrl (where browsers reach the gateway), consent.signIn (the gateway's client at its own issuer) and consent.vaultKey`;
  const federated = mcp.bundles.find((each) => each.userAuthorization !== undefined && each.mcpServer !== undefined);
  if (federated !== undefined)
    return `mcp.bundles ${federated.name}: userAuthorization is not yet for MCP server bundles (their calls share one upstream session, which carries no user's token); use it on openapi or manifest bundles`;
  const doubled = mcp.bundles.find(
    (each) => each.userAuthorization !== undefined && (each.tokenExchange !== undefined || each.mcpServer?.oauth !== undefined),
  );
  if (doubled !== undefined)
    return `mcp.bundles ${doubled.name}: userAuthorization and ${doubled.tokenExchange ? 'tokenExchange' : 'mcpServer.oauth'} would both set the token sent; keep one`;
  if (!auth.authorizationServers.some((server) => server.issuer === consent.signIn.issuer))
    return `consent.signIn.issuer ${consent.signIn.issuer} must be one of auth.authorizationServers: the person signing in there is compared with the caller its tokens name`;
  return undefined;
}
