import { type FeatureNamespace, matchesTemplate } from './feature-namespace';

/** What one bundle's server lists, in the server's own URIs (those its listing claimed: a collision's loser has none). */
export interface ServedUris {
  readonly namespace: FeatureNamespace;
  readonly uris: ReadonlySet<string>;
  readonly templates: readonly string[];
}

/**
 * Where a `resources/read` goes: the bundle and the server's own URI (`namespaced`: the caller wrote the
 * bundle's namespace, so the answer shows it too), or, for a URI several servers behind a namespace
 * serve, the namespaced URIs the caller may read instead.
 */
type ResourceTarget =
  { readonly bundle: string; readonly uri: string; readonly namespaced: boolean } | { readonly ambiguous: readonly string[] };

/**
 * The server of a URI, first in the gateway's own URI space: a bundle's namespace; a URI a bundle without
 * `namePrefix` lists, or one its template fits (the first such bundle, as the lists show it). Then a
 * server's own URI without its namespace, as tool results and prompt messages carry them (they pass whole):
 * the one namespaced bundle whose server lists it, or else the one with a template it fits; several are
 * ambiguous, since only the caller knows which server's result it follows. Last, with a single bundle
 * that keeps its URIs, that one, whose server has the last word (the conformance suites' unknown URI).
 */
export function resourceTarget(uri: string, served: readonly ServedUris[]): ResourceTarget | undefined {
  for (const { namespace } of served) {
    const upstream = namespace.upstreamUri(uri);
    if (upstream !== undefined) return { bundle: namespace.bundle, uri: upstream, namespaced: true };
  }
  const kept = served.filter(({ namespace }) => namespace.keepsUris);
  const keeper = kept.find((bundle) => bundle.uris.has(uri)) ?? kept.find((bundle) => fits(bundle, uri));
  if (keeper !== undefined) return { bundle: keeper.namespace.bundle, uri, namespaced: false };
  const behind = served.filter(({ namespace }) => !namespace.keepsUris);
  const listing = behind.filter((bundle) => bundle.uris.has(uri));
  const servers = listing.length > 0 ? listing : behind.filter((bundle) => fits(bundle, uri));
  if (servers.length > 1) return { ambiguous: servers.map(({ namespace }) => namespace.uri(uri)) };
  const [only] = servers.length === 1 ? servers : kept.length === 1 ? kept : [];
  return only && { bundle: only.namespace.bundle, uri, namespaced: false };
}

function fits(bundle: ServedUris, uri: string): boolean {
  return bundle.templates.some((template) => matchesTemplate(template, uri));
}
