/**
 * The optional, best-effort shared last-good cache (SPEC G16). Every failure is a miss: reads resolve to
 * `undefined`, writes resolve anyway. Values are JSON documents; the catalogue validates what it reads.
 */
export interface SnapshotCache {
  readRoute(routeToken: string): Promise<unknown>;
  writeRoute(routeToken: string, document: unknown): Promise<void>;
  readPortalRegistry(): Promise<unknown>;
  writePortalRegistry(document: unknown): Promise<void>;
  close(): Promise<void>;
  /** False while the cache cannot be reached; undefined before the first command said either way. */
  isAvailable(): boolean | undefined;
}
