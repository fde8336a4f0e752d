import type { RouteConfig } from '../model/route';
import type { RouteState } from '../model/route-state';
import type { RefusedTool } from '../model/tool-definition';
import type { DirectoryStatus } from '../portal/route-directory';

/** One row of `GET /actuator/toolBundles` (SPEC G17): what an operator needs to tell a bundle's state. */
export interface BundleStatus {
  readonly bundle: string;
  readonly routeRevision: string | null;
  /** remote / redis / local-fallback / isolated, or `none` when the route serves nothing yet. */
  readonly source: string;
  /**
   * True while the bundle serves only its local fallback manifest: no tool service has confirmed these
   * tools, and their calls go to a service that did not answer. Readiness stays UP (ADR 0009).
   */
  readonly degraded: boolean;
  /** Tools the bundle serves: those its manifests offer, less those refused or another bundle serves. */
  readonly toolCount: number;
  /**
   * Tools the manifest offers that are not served, each with a code and why: a `schema.*` code (SPEC N5),
   * or `registry.name_collision` for a name a bundle listed before this one serves.
   */
  readonly refusedTools: ReadonlyArray<{ name: string; code: string; message: string }>;
  readonly manifestRevision: string | null;
  readonly manifestHash: string | null;
  /** Where the served manifests were read from, one per tool service: after a same-origin redirect, where it led. */
  readonly manifestUrls: readonly string[];
  /** Seconds since the served tools were fetched from the tool service. */
  readonly ageSeconds: number | null;
  readonly lastAttempt: string | null;
  readonly lastSuccess: string | null;
  readonly lastError: { code: string; message: string; at: string } | null;
}

export interface CatalogueStatus {
  readonly ready: boolean;
  readonly generation: number | null;
  readonly toolCount: number;
  /** The portal registry's state; `null` with `mcp.bundles`. */
  readonly portal: {
    location: string;
    source: string;
    lastSuccess: string | null;
    lastError: { code: string; message: string; at: string } | null;
  } | null;
  readonly bundles: BundleStatus[];
}

const iso = (millis: number | undefined): string | null => (millis === undefined ? null : new Date(millis).toISOString());
const error = (e: { code: string; message: string; at: number } | undefined) =>
  e ? { code: e.code, message: e.message, at: new Date(e.at).toISOString() } : null;

/** `leftOut`: the bundle's tools that the merged catalogue does not serve, since another bundle serves their names. */
export function describeBundle(
  route: RouteConfig,
  state: RouteState | undefined,
  now: number,
  leftOut: readonly RefusedTool[] = [],
): BundleStatus {
  const snapshot = state?.snapshot;
  return {
    bundle: route.token,
    routeRevision: route.revision ?? null,
    source: snapshot?.source ?? 'none',
    degraded: snapshot?.source === 'local-fallback',
    toolCount: (snapshot?.tools.length ?? 0) - leftOut.length,
    refusedTools: [...(snapshot?.refusedTools ?? []), ...leftOut],
    manifestRevision: snapshot?.revision ?? null,
    manifestHash: snapshot?.hash ?? null,
    manifestUrls: snapshot?.manifests.flatMap((manifest) => (manifest.servedFrom === undefined ? [] : [manifest.servedFrom])) ?? [],
    ageSeconds: snapshot ? Math.max(0, Math.round((now - snapshot.fetchedAt) / 1000)) : null,
    lastAttempt: iso(state?.attemptedAt),
    lastSuccess: iso(state?.lastSuccessAt),
    lastError: error(state?.lastError),
  };
}

export function describePortal(status: DirectoryStatus | undefined): CatalogueStatus['portal'] {
  if (status === undefined) return null;
  return {
    location: status.location,
    source: status.source ?? 'none',
    lastSuccess: iso(status.lastSuccessAt),
    lastError: error(status.lastError),
  };
}
