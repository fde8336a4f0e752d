import { FeatureNamespace, matchesTemplate } from './feature-namespace';

describe('FeatureNamespace', () => {
  it("keeps the server's URIs without a namePrefix, and prefixes prompt names with nothing", () => {
    const kept = new FeatureNamespace('everything', undefined);
    expect(kept.keepsUris).toBe(true);
    expect(kept.uri('demo://resource/static/document/a.md')).toBe('demo://resource/static/document/a.md');
    expect(kept.upstreamUri('demo://resource/static/document/a.md')).toBeUndefined();
    expect(kept.promptName('simple-prompt')).toBe('simple-prompt');
  });

  it('with a namePrefix: prompt names prefixed, URIs and templates under "<bundle>+", and reversed', () => {
    const ns = new FeatureNamespace('ev-2', 'ev_');
    expect(ns.promptName('simple-prompt')).toBe('ev_simple-prompt');
    expect(ns.uri('demo://resource/dynamic/text/{id}')).toBe('ev-2+demo://resource/dynamic/text/{id}');
    expect(new URL(ns.uri('demo://resource/static/document/a.md')).protocol).toBe('ev-2+demo:');
    expect(ns.upstreamUri('ev-2+demo://resource/dynamic/text/7')).toBe('demo://resource/dynamic/text/7');
    expect(ns.upstreamUri('ev+demo://resource/dynamic/text/7')).toBeUndefined();
    expect(ns.upstreamUri('demo://resource/dynamic/text/7')).toBeUndefined();
  });
});

describe('matchesTemplate', () => {
  it.each([
    ['test://template/{id}/data', 'test://template/123/data', true],
    ['test://template/{id}/data', 'test://template/1/2/data', false],
    ['test://template/{id}/data', 'test://other/123/data', false],
    ['file:///{+path}', 'file:///a/b/c.txt', true],
    ['demo://r{?x,y}', 'demo://r?x=1&y=2', true],
    ['a.b://{x}', 'aXb://1', false],
  ])('%s against %s: %s', (template, uri, expected) => {
    expect(matchesTemplate(template, uri)).toBe(expected);
  });
});
