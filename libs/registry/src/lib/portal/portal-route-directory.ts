import { errorMessage } from '@toolmesh/protocol';

import type { SnapshotCache } from '../cache/snapshot-cache';
import { RegistryErrorCode, toRegistryError } from '../errors';
import type { CatalogueLog } from '../model/catalogue-log';
import type { JsonSource } from '../model/json-source';
import type { RouteConfig } from '../model/route';
import { parsePortalRegistry, type PortalRouteOptions } from './portal-registry';
import type { DirectoryStatus, RouteDirectory } from './route-directory';

export interface PortalRouteDirectoryOptions {
  readonly source: JsonSource;
  readonly routes: PortalRouteOptions;
  /** How long a portal read stays fresh (`mcp.portal.refreshTtlMillis`). */
  readonly ttlMillis: number;
  readonly cache?: SnapshotCache;
  readonly log: CatalogueLog;
  readonly now: () => number;
}

/**
 * The portal registry as the route list (SPEC G14-G16): read when due, validated, kept as last good.
 * A failed read keeps the routes in memory; only when memory is empty (cold start) is the cached copy
 * in Redis read. Successful reads are written through to the cache.
 */
export class PortalRouteDirectory implements RouteDirectory {
  private current: readonly RouteConfig[] | undefined;
  private attemptedAt = Number.NEGATIVE_INFINITY;
  private state: DirectoryStatus;

  constructor(private readonly options: PortalRouteDirectoryOptions) {
    this.state = { location: options.source.location };
  }

  routes(): readonly RouteConfig[] | undefined {
    return this.current;
  }

  dueAt(): number {
    return this.attemptedAt + this.options.ttlMillis;
  }

  status(): DirectoryStatus {
    return this.state;
  }

  async refresh(): Promise<void> {
    const now = this.options.now();
    this.attemptedAt = now;
    try {
      const document = await this.options.source.fetch();
      this.current = parsePortalRegistry(document, this.options.routes);
      this.state = { ...this.state, source: 'remote', lastSuccessAt: now };
      void this.options.cache?.writePortalRegistry(document);
      return;
    } catch (error) {
      const { code, message } = toRegistryError(error, RegistryErrorCode.PortalUnreachable);
      this.state = { ...this.state, lastError: { code, message, at: now } };
      this.options.log.warn('portal_registry_refresh_failed', { code, reason: message, keptRoutes: this.current?.length ?? 0 });
    }
    if (this.current === undefined) await this.warmStartFromCache(now);
  }

  private async warmStartFromCache(now: number): Promise<void> {
    const cached = await this.options.cache?.readPortalRegistry();
    if (cached === undefined) return;
    try {
      this.current = parsePortalRegistry(cached, this.options.routes);
      this.state = { ...this.state, source: 'redis', lastSuccessAt: now };
      this.options.log.info('portal_registry_warm_start', { routes: this.current.length });
    } catch (error) {
      this.options.log.warn('snapshot_cache_entry_invalid', {
        code: RegistryErrorCode.SnapshotCacheInvalid,
        entry: 'portal registry',
        reason: errorMessage(error),
      });
    }
  }
}
