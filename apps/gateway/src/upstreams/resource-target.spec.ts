import { FeatureNamespace } from './feature-namespace';
import { resourceTarget, type ServedUris } from './resource-target';

/** A bundle's server as resourceTarget sees it: its namespace (a `namePrefix` or none), its URIs and templates. */
function bundle(name: string, namePrefix: string | undefined, uris: string[], templates: string[] = []): ServedUris {
  return { namespace: new FeatureNamespace(name, namePrefix), uris: new Set(uris), templates };
}

describe('resourceTarget', () => {
  const ev = bundle('ev', 'ev_', ['demo://static/a', 'demo://static/shared'], ['demo://dynamic/{id}']);
  const tw = bundle('tw', 'tw_', ['demo://static/shared'], ['demo://dynamic/{id}', 'twin://{id}']);
  const other = bundle('other', 'o_', [], ['demo://{+path}']);

  it("goes to the bundle whose namespace the URI is in, with the server's own URI", () => {
    expect(resourceTarget('tw+demo://static/shared', [ev, tw])).toEqual({ bundle: 'tw', uri: 'demo://static/shared', namespaced: true });
  });

  it("takes a server's own URI without its namespace to the one namespaced server that lists it or has a template it fits", () => {
    expect(resourceTarget('demo://static/a', [ev, tw])).toEqual({ bundle: 'ev', uri: 'demo://static/a', namespaced: false });
    expect(resourceTarget('twin://7', [ev, tw])).toEqual({ bundle: 'tw', uri: 'twin://7', namespaced: false });
    expect(resourceTarget('demo://dynamic/4', [ev])).toEqual({ bundle: 'ev', uri: 'demo://dynamic/4', namespaced: false });
  });

  it("prefers a server's listing to another's template: a listing is the server's claim, a template fit only a guess", () => {
    expect(resourceTarget('demo://static/a', [other, ev])).toEqual({ bundle: 'ev', uri: 'demo://static/a', namespaced: false });
  });

  it('refuses to choose between servers that all list the URI, or whose templates it all fits, and names their namespaced forms', () => {
    expect(resourceTarget('demo://static/shared', [ev, tw])).toEqual({ ambiguous: ['ev+demo://static/shared', 'tw+demo://static/shared'] });
    expect(resourceTarget('demo://dynamic/4', [ev, tw, other])).toEqual({
      ambiguous: ['ev+demo://dynamic/4', 'tw+demo://dynamic/4', 'other+demo://dynamic/4'],
    });
  });

  it("keeps the URIs a bundle without namePrefix shows as its own, before any server's URI behind a namespace", () => {
    const kept = bundle('kept', undefined, ['demo://static/shared'], ['kept://{id}']);
    expect(resourceTarget('demo://static/shared', [ev, kept, tw])).toEqual({
      bundle: 'kept',
      uri: 'demo://static/shared',
      namespaced: false,
    });
    expect(resourceTarget('kept://1', [ev, kept])).toEqual({ bundle: 'kept', uri: 'kept://1', namespaced: false });
    // A URI nobody serves goes to the only bundle that keeps its URIs, whose server answers for it; with none, or two, nowhere.
    expect(resourceTarget('unknown://x', [ev, kept])).toEqual({ bundle: 'kept', uri: 'unknown://x', namespaced: false });
    expect(resourceTarget('unknown://x', [ev, tw])).toBeUndefined();
    expect(resourceTarget('unknown://x', [kept, bundle('kept-2', undefined, [])])).toBeUndefined();
  });
});
