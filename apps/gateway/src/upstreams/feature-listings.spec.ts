import type { Logger } from '@toolmesh/transport-http/server';

import { FeatureListings } from './feature-listings';
import type { UpstreamFeatures } from './upstream-connection';

const logger: Logger = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  flush: () => undefined,
};
const features = (name: string): UpstreamFeatures => ({
  resources: [{ uri: `test://${name}`, name }],
  resourceTemplates: [],
  prompts: [{ name }],
  skills: [],
});

describe('FeatureListings', () => {
  let clock: number;
  const settings = { ttlMillis: 1_000, retryMillis: 100, now: () => clock };

  beforeEach(() => {
    clock = 0;
  });

  it("waits for each server's first listing only, then serves the last good one while a due listing runs", async () => {
    let answer = features('one');
    let calls = 0;
    let release: () => void = () => undefined;
    let gate = Promise.resolve();
    const listings = new FeatureListings(
      ['a'],
      async () => {
        calls += 1;
        await gate;
        return answer;
      },
      settings,
      logger,
    );
    expect(await listings.current()).toEqual([['a', features('one')]]);
    clock = 500;
    expect(await listings.current()).toEqual([['a', features('one')]]);
    expect(calls).toBe(1);

    clock = 1_000; // due: listed again in the background, the last good served meanwhile
    gate = new Promise((resolve) => (release = resolve));
    answer = features('two');
    expect(await listings.current()).toEqual([['a', features('one')]]);
    expect(calls).toBe(2);
    release();
    await new Promise((resolve) => setImmediate(resolve));
    expect(await listings.current()).toEqual([['a', features('two')]]);
  });

  it('keeps the last good listing of a failing server, and never lets a stalled one hold up another after its first deadline', async () => {
    let failing = false;
    const stalled = new Promise<UpstreamFeatures>(() => undefined);
    let stalledFirst: (reason: Error) => void = () => undefined;
    const firstStalled = new Promise<UpstreamFeatures>((_, reject) => (stalledFirst = reject));
    let stalledCalls = 0;
    const listings = new FeatureListings(
      ['good', 'stalled'],
      async (bundle) => {
        if (bundle === 'stalled') return (stalledCalls += 1) === 1 ? firstStalled : stalled;
        if (failing) throw Object.assign(new Error('down'), { code: 'gateway.upstream_timeout' });
        return features(bundle);
      },
      settings,
      logger,
    );
    const first = listings.current();
    stalledFirst(Object.assign(new Error('no answer in time'), { code: 'gateway.upstream_timeout' }));
    expect(await first).toEqual([
      ['good', features('good')],
      ['stalled', undefined],
    ]);
    failing = true;
    clock = 2_000; // both due; the stalled server's second listing never ends
    expect(await listings.current()).toEqual([
      ['good', features('good')],
      ['stalled', undefined],
    ]);
    expect(stalledCalls).toBe(2);
  });

  it('lists a server again at once when told, once more after a listing that was running, and tells a change of its resources only', async () => {
    let answer = features('one');
    let calls = 0;
    let release: () => void = () => undefined;
    let gate = Promise.resolve();
    const settled = () => new Promise((resolve) => setImmediate(resolve));
    const listings = new FeatureListings(
      ['a'],
      async () => {
        calls += 1;
        await gate;
        return answer;
      },
      settings,
      logger,
    );
    let told = 0;
    listings.onResourcesChanged(() => (told += 1));
    await listings.current();
    expect(told).toBe(0); // the first listing is no change

    gate = new Promise((resolve) => (release = resolve));
    listings.relist('a');
    answer = { ...features('one'), prompts: [{ name: 'another' }] };
    listings.relist('a'); // told while that listing runs, which may have been answered before the change
    listings.relist('a');
    release();
    await settled();
    await settled();
    expect(calls).toBe(3); // the first, the relist, one more after it: not one per notification
    expect(await listings.current()).toEqual([['a', answer]]);
    expect(told).toBe(0); // prompts changed: resources/list_changed does not speak for them

    answer = { ...answer, skills: [{ uri: 'skill://new/SKILL.md', frontmatter: { name: 'new' }, resources: [] }] };
    listings.relist('a');
    await settled();
    expect(told).toBe(1);
  });
});
