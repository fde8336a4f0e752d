import type { RouteConfig } from '../model/route';
import type { SnapshotSource } from '../model/route-snapshot';

/** The last outcome of reading the route list, for the status endpoint. */
export interface DirectoryStatus {
  readonly location: string;
  readonly source?: Extract<SnapshotSource, 'remote' | 'redis'>;
  readonly lastSuccessAt?: number;
  readonly lastError?: { readonly code: string; readonly message: string; readonly at: number };
}

/** Where the catalogue's routes come from: the portal registry (with a TTL), or the fixed `mcp.bundles`. */
export interface RouteDirectory {
  /** The routes in memory; `undefined` until a route list was ever had. Never does I/O. */
  routes(): readonly RouteConfig[] | undefined;
  /** When (wall clock, ms) the route list is due for a refresh. */
  dueAt(): number;
  /** Reads the route list again. Failures keep the routes in memory; never throws. */
  refresh(): Promise<void>;
  status(): DirectoryStatus | undefined;
}

/** `mcp.bundles`: a route list that never changes and is never due. */
export class StaticRouteDirectory implements RouteDirectory {
  constructor(private readonly list: readonly RouteConfig[]) {}
  routes(): readonly RouteConfig[] {
    return this.list;
  }
  dueAt(): number {
    return Number.POSITIVE_INFINITY;
  }
  async refresh(): Promise<void> {
    // nothing to read: the list is the configuration
  }
  status(): undefined {
    return undefined;
  }
}
