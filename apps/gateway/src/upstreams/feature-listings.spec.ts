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

/** A server 'a' whose listing answers `answer`, counted in `calls`, held until `release()` after `hold()`. */
function gatedServer() {
  let gate = Promise.resolve();
  const server = {
    answer: features('one'),
    calls: 0,
    release: () => undefined as void,
    hold: () => {
      gate = new Promise((resolve) => (server.release = resolve));
    },
    list: async () => {
      server.calls += 1;
      await gate;
      return server.answer;
    },
  };
  return server;
}

const settled = () => new Promise((resolve) => setImmediate(resolve));

describe('FeatureListings', () => {
  let clock: number;
  const settings = { ttlMillis: 1_000, retryMillis: 100, now: () => clock };

  beforeEach(() => {
    clock = 0;
  });

  it("waits for each server's first listing only, then serves the last good one while a due listing runs", async () => {
    const server = gatedServer();
    const listings = new FeatureListings(['a'], server.list, settings, logger);
    expect(await listings.current()).toEqual([['a', features('one')]]);
    clock = 500;
    expect(await listings.current()).toEqual([['a', features('one')]]);
    expect(server.calls).toBe(1);

    clock = 1_000; // due: listed again in the background, the last good served meanwhile
    server.hold();
    server.answer = features('two');
    expect(await listings.current()).toEqual([['a', features('one')]]);
    expect(server.calls).toBe(2);
    server.release();
    await settled();
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
    const server = gatedServer();
    const listings = new FeatureListings(['a'], server.list, settings, logger);
    let told = 0;
    listings.onResourcesChanged(() => (told += 1));
    await listings.current();
    expect(told).toBe(0); // the first listing is no change

    server.hold();
    listings.relist('a');
    server.answer = { ...features('one'), prompts: [{ name: 'another' }] };
    listings.relist('a'); // told while that listing runs, which may have been answered before the change
    listings.relist('a');
    server.release();
    await settled();
    await settled();
    expect(server.calls).toBe(3); // the first, the relist, one more after it: not one per notification
    expect(await listings.current()).toEqual([['a', server.answer]]);
    expect(told).toBe(0); // prompts changed: resources/list_changed does not speak for them

    server.answer = { ...server.answer, skills: [{ uri: 'skill://new/SKILL.md', frontmatter: { name: 'new' }, resources: [] }] };
    listings.relist('a');
    await settled();
    expect(told).toBe(1);
  });
});
