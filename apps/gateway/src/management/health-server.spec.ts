import { startManagementServer, type ManagementServer } from './health-server';

describe('management server', () => {
  let ready = false;
  let bundles: unknown = { bundles: [] };
  let server: ManagementServer;

  beforeAll(async () => {
    server = await startManagementServer(0, '127.0.0.1', { ready: () => ready, toolBundles: () => bundles });
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
});
