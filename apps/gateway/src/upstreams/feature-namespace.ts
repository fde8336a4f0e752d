/** The Skills extension's URI scheme (SEP-2640): namespaced so that it stays the scheme. */
const SKILL_SCHEME = 'skill://';

/**
 * How one `mcpServer` bundle's resources and prompts are named toward the gateway's clients (issue 28).
 * Prompt names get the bundle's `namePrefix` in front, as its tools' do. Resource URIs are kept as the
 * server gave them when the bundle has no `namePrefix` (the URIs a client already knows, and those the
 * conformance suite expects, stay valid); with one they are put under the gateway's own scheme prefix
 * `<bundle>+`, which a bundle name (lowercase letters, digits, `-`) keeps a valid URI scheme, and which
 * works on templates too: a URI a client expands from a namespaced template is namespaced the same way.
 * A skill's URI is the exception (issue 49): `skill://<path>` becomes `skill://<bundle>/<path>`, which keeps
 * the scheme and the skill's name as its last segment, as SEP-2640 asks of every skill URI.
 */
export class FeatureNamespace {
  private readonly uriPrefix: string | undefined;

  constructor(
    readonly bundle: string,
    private readonly namePrefix: string | undefined,
  ) {
    this.uriPrefix = namePrefix === undefined ? undefined : `${bundle}+`;
  }

  /** Whether the server's URIs are shown as they are (no `namePrefix`). */
  get keepsUris(): boolean {
    return this.uriPrefix === undefined;
  }

  promptName(name: string): string {
    return `${this.namePrefix ?? ''}${name}`;
  }

  /** A server's URI, or URI template, as the gateway's clients see it. */
  uri(uri: string): string {
    if (this.uriPrefix === undefined) return uri;
    return uri.startsWith(SKILL_SCHEME) ? `${SKILL_SCHEME}${this.bundle}/${uri.slice(SKILL_SCHEME.length)}` : `${this.uriPrefix}${uri}`;
  }

  /** The server's URI behind a URI in this bundle's namespace; undefined for any other URI (always, for a bundle that keeps its URIs). */
  upstreamUri(uri: string): string | undefined {
    if (this.uriPrefix === undefined) return undefined;
    const skills = `${SKILL_SCHEME}${this.bundle}/`;
    if (uri.startsWith(skills)) return `${SKILL_SCHEME}${uri.slice(skills.length)}`;
    return uri.startsWith(this.uriPrefix) ? uri.slice(this.uriPrefix.length) : undefined;
  }
}

/**
 * Whether `uri` could be an expansion of the RFC 6570 `template`: its literal parts in order, each
 * expression standing for any text (reserved and fragment expansions, and query forms, may span `/`).
 * Used only to choose which server a URI that no listing names goes to; the server has the last word.
 */
export function matchesTemplate(template: string, uri: string): boolean {
  let pattern = '^';
  let last = 0;
  for (const expression of template.matchAll(/\{([^}]*)\}/g)) {
    pattern += escaped(template.slice(last, expression.index));
    pattern += /^[+#?&]/.test(expression[1]) ? '.*' : '[^/?#]*';
    last = expression.index + expression[0].length;
  }
  pattern += `${escaped(template.slice(last))}$`;
  return new RegExp(pattern, 's').test(uri);
}

function escaped(literal: string): string {
  return literal.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
