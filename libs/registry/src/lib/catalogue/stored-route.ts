import type { RouteLimits } from '../model/route-limits';
import type { RouteSnapshot, ServiceManifest, SnapshotBuild } from '../model/route-snapshot';
import { buildRouteSnapshot } from './build-route-snapshot';

/** Format tag of a route snapshot in the cache; a different tag is another version's entry and a miss. */
const FORMAT = 'toolmesh.route-snapshot.v2';

interface StoredRoute {
  format: typeof FORMAT;
  routeToken: string;
  fetchedAt: number;
  manifests: ServiceManifest[];
}

/** The cache entry of a route: the raw manifests, so a reader validates them exactly as a fetch would be. */
export function encodeRouteSnapshot(routeToken: string, snapshot: RouteSnapshot): StoredRoute {
  return { format: FORMAT, routeToken, fetchedAt: snapshot.fetchedAt, manifests: [...snapshot.manifests] };
}

/** Rebuilds a route's snapshot from its cache entry; anything malformed is reported, never half-used. */
export async function decodeRouteSnapshot(
  document: unknown,
  route: { token: string; namePrefix?: string },
  limits: RouteLimits,
): Promise<SnapshotBuild> {
  const stored = document as Partial<StoredRoute> | null;
  if (typeof stored !== 'object' || stored === null || stored.format !== FORMAT) return { ok: false, problems: [`not a ${FORMAT} entry`] };
  if (stored.routeToken !== route.token) return { ok: false, problems: ['the entry belongs to another route'] };
  if (typeof stored.fetchedAt !== 'number' || !Array.isArray(stored.manifests))
    return { ok: false, problems: ['fetchedAt or manifests missing'] };
  if (!stored.manifests.every((m) => typeof m === 'object' && m !== null && typeof (m as ServiceManifest).serviceDomain === 'string')) {
    return { ok: false, problems: ['a manifest entry has no serviceDomain'] };
  }
  return buildRouteSnapshot(route, stored.manifests, 'redis', stored.fetchedAt, limits);
}
