import type { RequestedRefresh } from '@toolmesh/registry';

import { type ManagementServer, startManagementServer } from './health-server';

describe('management server', () => {
  let ready = false;
  let bundles: unknown = { bundles: [] };
  let refresh: RequestedRefresh = { outcome: 'unknown-route' };
  const refreshed: string[] = [];
  let server: ManagementServer;

  beforeAll(async () => {
    server = await startManagementServer(0, '127.0.0.1', {
      ready: () => ready,
      toolBundles: () => bundles,
      refreshBundle: async (bundle) => {
        refreshed.push(bundle);
        return refresh;
      },
    });
  });
  afterAll(() => server.close());

  it('answers liveness whatever the readiness', async () => {
    const res = await fetch(`${server.url}/actuator/health/liveness`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'UP' });
  });

  it('reports readiness as the health state says', async () => {
    ready = false;
    const down = await fetch(`${server.url}/actuator/health/readiness`);
    expect([down.status, await down.json()]).toEqual([503, { status: 'DOWN' }]);
    ready = true;
    const up = await fetch(`${server.url}/actuator/health/readiness`);
    expect([up.status, await up.json()]).toEqual([200, { status: 'UP' }]);
  });

  it('serves the status of the tool bundles as JSON', async () => {
    bundles = { ready: true, bundles: [{ bundle: 'a', source: 'redis' }] };
    const res = await fetch(`${server.url}/actuator/toolBundles`);
    expect([res.status, await res.json()]).toEqual([200, bundles]);
  });

  it('answers unknown paths with a JSON 404', async () => {
    const res = await fetch(`${server.url}/nope`);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(((await res.json()) as { error: string }).error).toBe('not_found');
  });

  describe('POST /actuator/toolBundles/{bundle}/refresh', () => {
    const row = { bundle: 'core tools', source: 'remote', lastError: null };
    const post = (bundle: string, headers: Record<string, string> = {}) =>
      fetch(`${server.url}/actuator/toolBundles/${encodeURIComponent(bundle)}/refresh`, { method: 'POST', headers });

    it("answers with the bundle's row: 200 when the refresh read the manifest, 502 when it could not", async () => {
      refresh = { outcome: 'refreshed', bundle: row as never, failed: false };
      const ok = await post('core tools');
      expect([ok.status, await ok.json()]).toEqual([200, row]);
      expect(refreshed.at(-1)).toBe('core tools');
      refresh = { outcome: 'refreshed', bundle: row as never, failed: true };
      expect((await post('core tools')).status).toBe(502);
    });

    it('answers 404 for a bundle it does not serve, and 429 with Retry-After in whole seconds past the rate bound', async () => {
      refresh = { outcome: 'unknown-route' };
      const unknown = await post('nope');
      expect([unknown.status, ((await unknown.json()) as { error: string }).error]).toEqual([404, 'unknown_bundle']);
      refresh = { outcome: 'too-soon', retryAfterMillis: 1_200 };
      const soon = await post('core');
      expect([soon.status, soon.headers.get('retry-after'), ((await soon.json()) as { error: string }).error]).toEqual([
        429,
        '2',
        'too_many_requests',
      ]);
    });

    it('refuses other methods and browser requests before refreshing anything', async () => {
      const before = refreshed.length;
      const get = await fetch(`${server.url}/actuator/toolBundles/core/refresh`);
      expect([get.status, get.headers.get('allow')]).toEqual([405, 'POST']);
      expect((await post('core', { origin: 'https://evil.example' })).status).toBe(403);
      expect((await fetch(`${server.url}/actuator/toolBundles/%E0%A4%A/refresh`, { method: 'POST' })).status).toBe(404);
      expect(refreshed.length).toBe(before);
    });
  });
});
