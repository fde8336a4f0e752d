import { DocumentServer } from '@toolmesh/test-peers/document-server';

import { ROUTING_HINT_DOCUMENT } from '../model/json-source';
import type { RouteConfig } from '../model/route';
import { HttpJsonSource } from '../sources/http-json-source';
import { capturedLog, FETCH_LIMITS, manualClock } from '../test-support/catalogue-fixture';
import { RoutingHints } from './routing-hints';

const TTL = 300_000;

describe('RoutingHints (real HTTP tool services)', () => {
  let server: DocumentServer;
  beforeEach(async () => {
    server = await new DocumentServer().start();
  });
  afterEach(() => server.stop());

  const route = (token: string, revision = '1'): RouteConfig => {
    const domain = `${server.url}/${token}`;
    return {
      token,
      revision,
      services: [
        {
          serviceDomain: domain,
          manifest: new HttpJsonSource(new URL(`${domain}/tool-manifest`), FETCH_LIMITS),
          routingHint: new HttpJsonSource(new URL(`${domain}/tool-service-manifest`), FETCH_LIMITS, ROUTING_HINT_DOCUMENT),
        },
      ],
    };
  };
  const hintOf = (name: string) => ({ service: { name } });

  it("keeps each route's last good hint through failures, refreshes only after its TTL, and leaves out routes that never answered", async () => {
    const clock = manualClock();
    const log = capturedLog();
    server.serve('/a/tool-service-manifest', { json: hintOf('a') }).serve('/b/tool-service-manifest', { status: 500 });
    const hints = new RoutingHints({ routes: () => [route('a'), route('b')], ttlMillis: TTL, log, now: clock.now });
    expect(hints.current()).toBeUndefined(); // nothing yet; the first call starts the lookup
    await hints.refresh();
    expect(hints.current()).toEqual([{ route: 'a', toolServices: [hintOf('a')] }]);

    server.serve('/a/tool-service-manifest', 'hang-up');
    for (let i = 0; i < 10; i++) hints.current();
    expect(server.fetches('/a/tool-service-manifest')).toBe(1); // within the TTL
    clock.advance(TTL);
    hints.current();
    await hints.refresh();
    expect(hints.current()).toEqual([{ route: 'a', toolServices: [hintOf('a')] }]);
    // the refresh after the TTL, and its one retry: a hang-up before any reply byte is retried once (HttpJsonSource)
    expect(server.fetches('/a/tool-service-manifest')).toBe(3);
    expect(log.of('routing_hint_refresh_failed')).toHaveLength(3);
  });

  it('reloads at once when the routes change, and forgets routes that are gone', async () => {
    let routes = [route('a'), route('b')];
    server.serve('/a/tool-service-manifest', { json: hintOf('a') }).serve('/b/tool-service-manifest', { json: hintOf('b') });
    const hints = new RoutingHints({ routes: () => routes, ttlMillis: TTL, log: capturedLog(), now: manualClock().now });
    await hints.refresh();
    expect(hints.current()?.map((hint) => hint.route)).toEqual(['a', 'b']);
    routes = [route('a', '2')];
    server.serve('/a/tool-service-manifest', { json: hintOf('a2') });
    hints.current();
    await hints.refresh();
    expect(hints.current()).toEqual([{ route: 'a', toolServices: [hintOf('a2')] }]);
  });
});
