/**
 * Whether a token's `aud` names the gateway: one of its values (a string or an array of them) is the
 * configured audience, compared as the authorization text says a server SHOULD compare URIs (RFC 3986
 * §6.2.2: syntax-based normalization), so `HTTPS://Gateway.Example/mcp` names `https://gateway.example/mcp`:
 * the scheme and host without case, a default port dropped; the path as written. A value that is no
 * absolute URI is compared as it is.
 */
export class Audience {
  private readonly canonical: string;

  constructor(configured: string) {
    this.canonical = canonicalUri(configured);
  }

  isNamedBy(aud: unknown): boolean {
    const values: unknown[] = typeof aud === 'string' ? [aud] : Array.isArray(aud) ? aud : [];
    return values.some((value) => typeof value === 'string' && canonicalUri(value) === this.canonical);
  }
}

function canonicalUri(value: string): string {
  try {
    return new URL(value).href;
  } catch {
    return value;
  }
}
