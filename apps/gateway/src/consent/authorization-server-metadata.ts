import { errorMessage } from '@toolmesh/protocol';

/** What the consent flow needs of an authorization server's metadata (RFC 8414 §2). */
export interface AuthorizationServerMetadata {
  readonly issuer: string;
  readonly authorizationEndpoint: URL;
  readonly tokenEndpoint: URL;
  readonly jwksUri?: URL;
}

/** A metadata document is small; a larger one is refused. */
const MAX_METADATA_BYTES = 256 * 1024;

/**
 * The well-known URLs of an issuer's metadata, in the order the MCP authorization spec has a client try
 * them: RFC 8414's (its `/.well-known/` inserted before the issuer's path), then OpenID Connect discovery's
 * both ways (inserted, and appended as OIDC Discovery 1.0 §4 has it).
 */
function wellKnownUrls(issuer: string): URL[] {
  const url = new URL(issuer);
  const path = url.pathname === '/' ? '' : url.pathname.replace(/\/$/, '');
  return [
    new URL(`/.well-known/oauth-authorization-server${path}`, url.origin),
    new URL(`/.well-known/openid-configuration${path}`, url.origin),
    ...(path === '' ? [] : [new URL(`${path}/.well-known/openid-configuration`, url.origin)]),
  ];
}

/**
 * Reads an issuer's metadata from the first well-known URL that answers one, and checks what the consent
 * flow relies on: the document names this very issuer (RFC 8414 §3.3, against a mix-up), has both
 * endpoints, and offers PKCE with S256 (OAuth 2.1; the MCP spec has a client refuse a server that does not
 * say so). Throws an Error saying which.
 */
export async function readMetadata(issuer: string, timeoutMillis: number): Promise<AuthorizationServerMetadata> {
  const failures: string[] = [];
  for (const url of wellKnownUrls(issuer)) {
    let document: Record<string, unknown> | undefined;
    try {
      document = await fetchDocument(url, timeoutMillis);
    } catch (error) {
      failures.push(`${url.pathname}: ${errorMessage(error)}`);
      continue;
    }
    if (document === undefined) {
      failures.push(`${url.pathname}: not found`);
      continue;
    }
    return checked(issuer, document);
  }
  throw new Error(`no authorization server metadata at ${issuer} (${failures.join('; ')})`);
}

function checked(issuer: string, document: Record<string, unknown>): AuthorizationServerMetadata {
  if (document.issuer !== issuer) throw new Error(`the metadata at ${issuer} names another issuer`);
  const authorize = httpUrl(document.authorization_endpoint);
  const token = httpUrl(document.token_endpoint);
  if (authorize === undefined || token === undefined)
    throw new Error(`the metadata of ${issuer} lacks an authorization_endpoint or token_endpoint`);
  const methods = document.code_challenge_methods_supported;
  if (!Array.isArray(methods) || !methods.includes('S256'))
    throw new Error(`${issuer} does not offer PKCE with S256 (code_challenge_methods_supported), which the consent flow requires`);
  const jwks = httpUrl(document.jwks_uri);
  return { issuer, authorizationEndpoint: authorize, tokenEndpoint: token, ...(jwks && { jwksUri: jwks }) };
}

/** The JSON object at `url`, undefined on 404; throws on any other failure. */
async function fetchDocument(url: URL, timeoutMillis: number): Promise<Record<string, unknown> | undefined> {
  const response = await fetch(url, {
    headers: { accept: 'application/json' },
    redirect: 'error',
    signal: AbortSignal.timeout(timeoutMillis),
  });
  if (response.status === 404) {
    await response.body?.cancel();
    return undefined;
  }
  if (response.status !== 200) {
    await response.body?.cancel();
    throw new Error(`HTTP ${response.status}`);
  }
  const length = Number(response.headers.get('content-length') ?? 0);
  if (length > MAX_METADATA_BYTES) {
    await response.body?.cancel();
    throw new Error(`larger than ${MAX_METADATA_BYTES} bytes`);
  }
  const text = await response.text();
  if (text.length > MAX_METADATA_BYTES) throw new Error(`larger than ${MAX_METADATA_BYTES} bytes`);
  const value: unknown = JSON.parse(text);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('not a JSON object');
  return value as Record<string, unknown>;
}

function httpUrl(value: unknown): URL | undefined {
  if (typeof value !== 'string' || !URL.canParse(value)) return undefined;
  const url = new URL(value);
  return url.protocol === 'https:' || url.protocol === 'http:' ? url : undefined;
}

/**
 * Each issuer's metadata, read once when first needed and kept for the process; a failed read is
 * forgotten, so the next consent tries again (the server may have been down).
 */
export class MetadataCache {
  private readonly read = new Map<string, Promise<AuthorizationServerMetadata>>();

  constructor(private readonly timeoutMillis: number) {}

  of(issuer: string): Promise<AuthorizationServerMetadata> {
    let metadata = this.read.get(issuer);
    if (metadata === undefined) {
      metadata = readMetadata(issuer, this.timeoutMillis);
      metadata.catch(() => this.read.delete(issuer));
      this.read.set(issuer, metadata);
    }
    return metadata;
  }
}
