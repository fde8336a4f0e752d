import { printableName } from '@toolmesh/protocol';

import type { SnapshotCache } from '../cache/snapshot-cache';
import { RegistryError, RegistryErrorCode, toRegistryError } from '../errors';
import type { CatalogueLog } from '../model/catalogue-log';
import { type RouteConfig, routeSignature } from '../model/route';
import type { RouteLimits } from '../model/route-limits';
import type { RouteSnapshot, ServiceManifest } from '../model/route-snapshot';
import type { RouteState } from '../model/route-state';
import { buildRouteSnapshot, emptySnapshot } from './build-route-snapshot';
import { decodeRouteSnapshot } from './stored-route';

export interface RouteLoaderOptions {
  /** The optional shared last-good cache (Redis), read only for a route memory holds nothing of. */
  readonly cache?: SnapshotCache;
  readonly log: CatalogueLog;
  /** What one route may offer (the catalogue's `maxTools`, `maxSchemaNodes`), checked before any compiling. */
  readonly limits: RouteLimits;
  /** Wall clock in ms: the attempt's time, and the fetch time of what it loads. */
  readonly now: () => number;
}

/**
 * Loads one route (SPEC G15, G16): fetches all its tool services' manifests and validates them together
 * into the route's next state. On failure the route keeps the snapshot it had; with none, another
 * replica's (Redis) and then the local fallback manifest are tried. It keeps no state of its own: the
 * LiveCatalogue hands it the route's previous state and decides what to install.
 */
export class RouteLoader {
  constructor(private readonly options: RouteLoaderOptions) {}

  /** One route's manifests, all of them or none: a route whose aggregate cannot be confirmed keeps what it had. */
  async load(route: RouteConfig, previous: RouteState | undefined): Promise<RouteState> {
    const now = this.options.now();
    const base = {
      signature: routeSignature(route),
      attemptedAt: now,
      lastSuccessAt: previous?.lastSuccessAt,
      lastError: previous?.lastError,
    };
    if (route.endpointProblem !== undefined) {
      this.options.log.warn('route_endpoint_invalid', {
        code: RegistryErrorCode.RouteEndpointInvalid,
        route: route.token,
        reason: route.endpointProblem,
      });
      const lastError = { code: RegistryErrorCode.RouteEndpointInvalid, message: route.endpointProblem, at: now };
      return { ...base, lastError, snapshot: previous?.snapshot ?? emptySnapshot('isolated', now) };
    }
    try {
      const manifests = await Promise.all(
        route.services.map(async ({ serviceDomain, manifest: source, openapi, mcpServer }) => {
          const manifest = await source.fetch();
          const servedFrom = source.servedFrom ?? source.location;
          return { serviceDomain, manifest, servedFrom, ...(openapi && { openapi }), ...(mcpServer && { mcpServer }) };
        }),
      );
      const kept = previous?.signature === base.signature ? previous.snapshot : undefined;
      if (kept !== undefined && builtFrom(kept, manifests)) {
        // Every document as it was: nothing to validate, convert or compile again (a 50,000-tool manifest
        // cost its whole parse and validation at every refresh, issue 43).
        return { ...base, snapshot: { ...kept, fetchedAt: now }, lastSuccessAt: now };
      }
      const build = await buildRouteSnapshot(route, manifests, 'remote', now, this.options.limits, previous?.snapshot);
      if (!build.ok) throw new RegistryError(build.code ?? RegistryErrorCode.ManifestInvalid, build.problems.slice(0, 20).join('; '));
      const refused = build.snapshot.refusedTools;
      if (refused.length > 0) {
        // Names only: manifest names are bounded tokens; the reasons are in toolBundles.
        this.options.log.warn('manifest_tools_refused', {
          route: route.token,
          count: refused.length,
          tools: refused
            .slice(0, 20)
            .map((tool) => printableName(tool.name))
            .join(','),
        });
      }
      if (previous?.snapshot?.source === 'local-fallback')
        this.options.log.info('route_recovered', { route: route.token, source: 'remote' });
      return { ...base, snapshot: build.snapshot, lastSuccessAt: now };
    } catch (error) {
      const { code, message } = toRegistryError(error, RegistryErrorCode.ManifestUnreachable);
      const snapshot = previous?.snapshot ?? (await this.fromCache(route)) ?? (await this.fromFallback(route));
      this.options.log.warn('route_refresh_failed', { code, route: route.token, reason: message, serving: snapshot?.source ?? 'nothing' });
      return { ...base, lastError: { code, message, at: now }, ...(snapshot && { snapshot }) };
    }
  }

  /** Cold start only (memory empty for this route): another replica's last good snapshot. */
  private async fromCache(route: RouteConfig): Promise<RouteSnapshot | undefined> {
    const document = await this.options.cache?.readRoute(route.token);
    if (document === undefined) return undefined;
    const build = await decodeRouteSnapshot(document, route, this.options.limits);
    if (build.ok) return build.snapshot;
    this.options.log.warn('snapshot_cache_entry_invalid', {
      code: RegistryErrorCode.SnapshotCacheInvalid,
      route: route.token,
      reason: build.problems.slice(0, 5).join('; '),
    });
    return undefined;
  }

  /** Local profile: the sample manifest, only while no remote fetch of this route has succeeded (G16). */
  private async fromFallback(route: RouteConfig): Promise<RouteSnapshot | undefined> {
    if (route.fallback === undefined) return undefined;
    try {
      const manifest = await route.fallback.fetch();
      const build = await buildRouteSnapshot(
        route,
        [{ serviceDomain: route.services[0]?.serviceDomain ?? '', manifest }],
        'local-fallback',
        this.options.now(),
        this.options.limits,
      );
      if (build.ok) {
        // Once, on entering: until a remote fetch succeeds, its tools' calls go to a service that did not answer.
        this.options.log.warn('route_degraded', { route: route.token, serving: 'local-fallback', tools: build.snapshot.tools.length });
        return build.snapshot;
      }
      this.options.log.warn('fallback_manifest_invalid', {
        code: build.code ?? RegistryErrorCode.ManifestInvalid,
        route: route.token,
        reason: build.problems.slice(0, 5).join('; '),
      });
    } catch (error) {
      const { code, message } = toRegistryError(error, RegistryErrorCode.ManifestUnreachable);
      this.options.log.warn('fallback_manifest_invalid', { code, route: route.token, reason: message });
    }
    return undefined;
  }
}

/** Whether `snapshot` was built from exactly these documents: the same objects, in the same order. */
function builtFrom(snapshot: RouteSnapshot, fetched: readonly ServiceManifest[]): boolean {
  const { documents } = snapshot;
  return (
    documents !== undefined &&
    documents.length === fetched.length &&
    fetched.every((service, index) => service.manifest === documents[index])
  );
}
