import { readFileSync } from 'node:fs';

import { buildRouteSnapshot } from './build-route-snapshot';
import { decodeRouteSnapshot, encodeRouteSnapshot } from './stored-route';

const petstore = JSON.parse(readFileSync(require.resolve('@readme/oas-examples/3.1/json/petstore.json'), 'utf8')) as Record<
  string,
  unknown
>;
const service = {
  serviceDomain: 'http://pets.internal/v2',
  manifest: petstore,
  openapi: { operations: ['getOrderById', 'findPetsByStatus'], tags: ['user'] },
};

describe('an OpenAPI route in the catalogue model (issue 27)', () => {
  it('builds a snapshot whose tools carry their bindings, and whose refusals are listed', async () => {
    const build = await buildRouteSnapshot({ token: 'pets' }, [service], 'remote', 0, { maxTools: 100 });
    if (!build.ok) throw new Error(build.problems.join('; '));
    const order = build.snapshot.tools.find((tool) => tool.name === 'getOrderById');
    expect(order).toMatchObject({
      routeToken: 'pets',
      endpoint: new URL('http://pets.internal/v2/store/order/'),
      target: { kind: 'openapi', http: { method: 'GET', path: ['/v2/store/order/', { argument: 'orderId' }], query: [] } },
    });
    expect(order?.inputValidator.check({ orderId: 11 }, 'arguments')).toEqual({ ok: false, problems: ['arguments.orderId must be <= 10'] });
    expect(build.snapshot.tools.map((tool) => tool.name)).toContain('loginUser');
    expect(build.snapshot.refusedTools).toEqual([
      { name: 'findPetsByStatus', code: 'registry.operation_refused', message: expect.stringContaining('petstore_auth') },
    ]);
    expect(build.snapshot.revision).toBe('1.0.0');
  });

  it('goes through the shared cache as a fetch does: the document and the selection, rebuilt the same', async () => {
    const build = await buildRouteSnapshot({ token: 'pets' }, [service], 'remote', 0, { maxTools: 100 });
    if (!build.ok) throw new Error(build.problems.join('; '));
    const stored = JSON.parse(JSON.stringify(encodeRouteSnapshot('pets', build.snapshot))) as unknown;
    const decoded = await decodeRouteSnapshot(stored, { token: 'pets' }, { maxTools: 100 });
    if (!decoded.ok) throw new Error(decoded.problems.join('; '));
    expect(decoded.snapshot.source).toBe('redis');
    expect(decoded.snapshot.hash).toBe(build.snapshot.hash);
    expect(decoded.snapshot.tools.map(({ name, target, publicTool }) => ({ name, target, publicTool }))).toEqual(
      build.snapshot.tools.map(({ name, target, publicTool }) => ({ name, target, publicTool })),
    );
  });

  it('keeps a broken document out: the build fails with registry.openapi_invalid', async () => {
    const broken = { ...service, manifest: { ...petstore, paths: { '/x': { get: { responses: 7 } } } } };
    expect(await buildRouteSnapshot({ token: 'pets' }, [broken], 'remote', 0, { maxTools: 100 })).toMatchObject({
      ok: false,
      code: 'registry.openapi_invalid',
      problems: [expect.stringContaining('http://pets.internal/v2: invalid OpenAPI document')],
    });
  });
});
