import path from 'node:path';

import { RegistryError, RegistryErrorCode } from '../errors';
import { PORTAL_DOCUMENT } from '../model/json-source';
import { jsonSourceAt } from '../sources/http-json-source';
import { parsePortalRegistry } from './portal-registry';

const options = { fetch: { timeoutMillis: 1_000, maxBytes: 1_000_000 } };
const SAMPLE = path.join(__dirname, '../../../../../config/local-toolserver-info-sample-v1.json');
const service = (serviceDomain: string, enabled: 'Y' | 'N' = 'Y') => ({ serviceDomain, manifestPath: '/tool-manifest', enabled });

function rejection(document: unknown): RegistryError {
  try {
    parsePortalRegistry(document, options);
  } catch (error) {
    return error as RegistryError;
  }
  throw new Error('accepted');
}

describe('parsePortalRegistry (docs/schemas/portal-registry.schema.json)', () => {
  it('reads the shipped local sample through a file: location', async () => {
    const routes = parsePortalRegistry(await jsonSourceAt(`file:${SAMPLE}`, PORTAL_DOCUMENT, options.fetch).fetch(), options);
    expect(routes.map((route) => [route.token, route.revision, route.services.map((s) => s.manifest.location)])).toEqual([
      ['sample', '1', ['http://127.0.0.1:8081/tool-manifest']],
    ]);
  });

  it('keeps enabled routes and services only; a route with every service disabled stays, with none', () => {
    const routes = parsePortalRegistry(
      {
        routes: [
          {
            routeToken: 'on',
            enabled: 'Y',
            routeRevision: 7,
            toolServices: [service('http://a.internal'), service('http://b.internal', 'N')],
          },
          { routeToken: 'off', enabled: 'N', routeRevision: '1', toolServices: [service('http://c.internal')] },
          { routeToken: 'idle', enabled: 'Y', routeRevision: '1', toolServices: [service('http://d.internal', 'N')], unknownMember: true },
        ],
      },
      options,
    );
    expect(routes.map((route) => [route.token, route.revision, route.services.map((s) => s.serviceDomain)])).toEqual([
      ['on', '7', ['http://a.internal']],
      ['idle', '1', []],
    ]);
  });

  it('isolates a route with a bad endpoint instead of rejecting the registry', () => {
    const [route] = parsePortalRegistry(
      { routes: [{ routeToken: 'r', enabled: 'Y', routeRevision: '1', toolServices: [service('http://user:secret@x.internal')] }] },
      options,
    );
    expect(route.services).toEqual([]);
    expect(route.endpointProblem).toBe('toolServices[0]: serviceDomain must not carry credentials');
  });

  it.each([
    ['not an object', 'text'],
    ['routes missing', {}],
    ['enabled not Y/N', { routes: [{ routeToken: 'r', enabled: 'yes', routeRevision: '1', toolServices: [] }] }],
    ['a bad route token', { routes: [{ routeToken: 'a b', enabled: 'Y', routeRevision: '1', toolServices: [] }] }],
    ['a route listed twice', { routes: [1, 2].map(() => ({ routeToken: 'r', enabled: 'Y', routeRevision: '1', toolServices: [] })) }],
  ])('rejects a registry with %s, with a clear error', (_, document) => {
    const error = rejection(document);
    expect(error.code).toBe(RegistryErrorCode.PortalInvalid);
    expect(error.message).toMatch(/^portal registry: /);
  });
});
