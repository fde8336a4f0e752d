import type { OpenApiSelection } from './http-binding';
import type { JsonSource } from './json-source';

/** One enabled tool service of a route: where its manifest is, and where its routing hint is. */
export interface ToolServiceTarget {
  /** Base URL relative tool endpoints are appended to (SPEC G10). */
  readonly serviceDomain: string;
  readonly manifest: JsonSource;
  /** The source is an OpenAPI document, of which these operations are tools (issue 27). */
  readonly openapi?: OpenApiSelection;
  /** The source is an MCP server (issue 28): `manifest` reads its `tools/list`, every page, as `{ tools }`. */
  readonly mcpServer?: boolean;
  /** `GET {serviceDomain}/tool-service-manifest` (SPEC G18); absent for file-based manifests. */
  readonly routingHint?: JsonSource;
}

/**
 * A route (SPEC G14): the unit the catalogue keeps a snapshot, a TTL, a Redis key and a status row for.
 * A portal route lists its enabled tool services; each `mcp.bundles` entry is a route of one service.
 * Its tools carry the route token as their `routeToken`.
 */
export interface RouteConfig {
  readonly token: string;
  readonly revision?: string;
  readonly services: readonly ToolServiceTarget[];
  readonly namePrefix?: string;
  /** The portal's endpoint metadata of this route is unusable: keep the route's last good snapshot. */
  readonly endpointProblem?: string;
  /** Local profile: the manifest served after the first remote failure, until a remote success. */
  readonly fallback?: JsonSource;
}

/** Changes when the route's revision or endpoint configuration does; a change refetches the route at once. */
export function routeSignature(route: RouteConfig): string {
  return JSON.stringify([
    route.revision ?? null,
    route.endpointProblem ?? null,
    route.services.map((service) => [
      service.serviceDomain,
      service.manifest.location,
      service.openapi ?? null,
      service.mcpServer ?? false,
    ]),
  ]);
}
