import { SchemaCompiler } from '@toolmesh/protocol';

import portalSchema from '../../../../../docs/schemas/portal-registry.schema.json';
import { RegistryError, RegistryErrorCode } from '../errors';
import { ROUTING_HINT_DOCUMENT } from '../model/json-source';
import type { RouteConfig, ToolServiceTarget } from '../model/route';
import { HttpJsonSource, type HttpJsonSourceOptions } from '../sources/http-json-source';

/** Where each tool service publishes its routing hint (SPEC G18). */
export const ROUTING_HINT_PATH = '/tool-service-manifest';

export interface PortalRouteOptions {
  /** Fetch limits for the manifests and routing hints of the routes. */
  readonly fetch: HttpJsonSourceOptions;
  /** Every tool name of every route must start with it (SPEC G14). */
  readonly namePrefix?: string;
}

interface PortalToolService {
  serviceDomain: string;
  manifestPath: string;
  enabled: 'Y' | 'N';
}

interface PortalRoute {
  routeToken: string;
  enabled: 'Y' | 'N';
  routeRevision: string | number;
  toolServices: PortalToolService[];
}

const portalDocument = new SchemaCompiler({ maxProblems: 10 }).compile(portalSchema);

/**
 * The enabled routes of a portal registry document (docs/schemas/portal-registry.schema.json). A document
 * that fails the schema is rejected whole; a route whose endpoints break the rules of G10 is kept with
 * `endpointProblem` set, so only that route is isolated.
 */
export function parsePortalRegistry(document: unknown, options: PortalRouteOptions): RouteConfig[] {
  const shape = portalDocument.check(document, 'registry');
  if (!shape.ok) {
    throw new RegistryError(RegistryErrorCode.PortalInvalid, `portal registry: ${shape.problems.join('; ')}`);
  }
  const routes = (document as { routes: PortalRoute[] }).routes.filter((route) => route.enabled === 'Y');
  const tokens = routes.map((route) => route.routeToken);
  const duplicate = tokens.find((token, i) => tokens.indexOf(token) !== i);
  if (duplicate !== undefined)
    throw new RegistryError(RegistryErrorCode.PortalInvalid, `portal registry: route ${duplicate} is listed twice`);
  return routes.map((route) => toRouteConfig(route, options));
}

function toRouteConfig(route: PortalRoute, options: PortalRouteOptions): RouteConfig {
  const base = {
    token: route.routeToken,
    revision: String(route.routeRevision),
    ...(options.namePrefix !== undefined && { namePrefix: options.namePrefix }),
  };
  const services: ToolServiceTarget[] = [];
  for (const [i, service] of route.toolServices.entries()) {
    if (service.enabled !== 'Y') continue;
    const problem = endpointProblem(service);
    // Named by position, never by value: a bad serviceDomain may carry credentials.
    if (problem !== undefined) return { ...base, services: [], endpointProblem: `toolServices[${i}]: ${problem}` };
    const domain = service.serviceDomain.replace(/\/+$/, '');
    services.push({
      serviceDomain: domain,
      manifest: new HttpJsonSource(new URL(`${domain}${service.manifestPath}`), options.fetch),
      routingHint: new HttpJsonSource(new URL(`${domain}${ROUTING_HINT_PATH}`), options.fetch, ROUTING_HINT_DOCUMENT),
    });
  }
  return { ...base, services };
}

function endpointProblem(service: PortalToolService): string | undefined {
  if (!/^https?:\/\//i.test(service.serviceDomain) || !URL.canParse(service.serviceDomain))
    return 'serviceDomain must be an absolute http(s) URL';
  const url = new URL(service.serviceDomain);
  if (url.username !== '' || url.password !== '') return 'serviceDomain must not carry credentials';
  if (url.search !== '' || url.hash !== '') return 'serviceDomain must not carry a query or fragment';
  if (!service.manifestPath.startsWith('/') || service.manifestPath.startsWith('//')) return 'manifestPath must start with a single "/"';
  return undefined;
}
