import { errorMessage, printableName } from '@toolmesh/protocol';

import type { SnapshotCache } from '../cache/snapshot-cache';
import { type RegistryError, RegistryErrorCode, toRegistryError } from '../errors';
import type { CatalogueLog, RequestIds } from '../model/catalogue-log';
import { type RouteConfig, routeSignature } from '../model/route';
import type { RouteSnapshot } from '../model/route-snapshot';
import type { RouteError, RouteState } from '../model/route-state';
import type { ToolDefinition } from '../model/tool-definition';
import type { RouteDirectory } from '../portal/route-directory';
import { type BundleStatus, type CatalogueStatus, describeBundle, describePortal } from '../status/bundle-status';
import type { CatalogueGeneration } from './catalogue-generation';
import { type CatalogueLimits, collisionRefusal, type MergedRoutes, mergeRoutes, type NameCollision, sameCatalogue } from './merge-routes';
import { RouteLoader } from './route-loader';
import { encodeRouteSnapshot } from './stored-route';
import type { ToolCatalogue } from './tool-catalogue';

export interface LiveCatalogueOptions {
  readonly directory: RouteDirectory;
  readonly limits: CatalogueLimits;
  /** How long a route's manifests stay fresh (`mcp.catalogue.refreshTtlMillis`). */
  readonly manifestTtlMillis: number;
  /** Least time between two refreshes of one route forced by unknown names or stale tools (SPEC G15: 5 s). */
  readonly forcedRefreshCooldownMillis: number;
  /** Least time between two refreshes of one route asked for by its tool service or an operator. */
  readonly requestedRefreshIntervalMillis: number;
  /** The optional shared last-good cache (Redis); absent, nothing is cached. */
  readonly cache?: SnapshotCache;
  readonly log: CatalogueLog;
  /** Wall clock in ms; tests pass their own. TTLs, cooldowns and the status all read it. */
  readonly now?: () => number;
}

export type ToolsListChangedListener = (generation: CatalogueGeneration) => void;

/** How a refresh asked for by a tool service or an operator ended. */
export type RequestedRefresh =
  | { readonly outcome: 'refreshed'; readonly bundle: BundleStatus; readonly failed: boolean }
  | { readonly outcome: 'unknown-route' }
  | { readonly outcome: 'too-soon'; readonly retryAfterMillis: number };

/** Routes to fetch whatever their TTL says: all of them (preload, cold start), or the named ones. */
type Forced = 'all' | ReadonlySet<string>;
const DUE_ONLY: Forced = new Set<string>();

/**
 * The live catalogue (SPEC G14-G19): routes from a RouteDirectory (portal registry or `mcp.bundles`), each
 * route loaded by the RouteLoader (in parallel) and kept as that route's last good snapshot, all merged
 * into one immutable generation that the request path reads without I/O.
 *
 * There is no timer: `current()` compares the clock with the next due time and, when a TTL has expired,
 * starts one background refresh and answers from memory at once. Refreshes share one flight; the only
 * shared state they touch is swapped after the I/O, so no lock is ever held across I/O.
 */
export class LiveCatalogue implements ToolCatalogue {
  private generation: CatalogueGeneration | undefined;
  /** The names the routes of the last merge offered twice, and who serves each. */
  private collisions: readonly NameCollision[] = [];
  private states = new Map<string, RouteState>();
  private readonly lastForcedRefresh = new Map<string, number>();
  private readonly lastRequestedRefresh = new Map<string, number>();
  /** Per route, a requested refresh that has not started yet; later requests join it. */
  private readonly waitingRequests = new Map<string, Promise<RequestedRefresh>>();
  private flight: { forced: Forced; promise: Promise<CatalogueGeneration | undefined> } | undefined;
  private nextDueAt = Number.NEGATIVE_INFINITY;
  private discoveryAttempted = false;
  private usable = false;
  private readonly listeners = new Set<ToolsListChangedListener>();
  private readonly now: () => number;
  private readonly loader: RouteLoader;

  constructor(private readonly options: LiveCatalogueOptions) {
    this.now = options.now ?? Date.now;
    this.loader = new RouteLoader({ cache: options.cache, log: options.log, limits: options.limits, now: this.now });
  }

  current(): CatalogueGeneration | undefined {
    if (this.flight === undefined && this.now() >= this.nextDueAt) void this.refresh(DUE_ONLY);
    return this.generation;
  }

  ensureLoaded(): Promise<CatalogueGeneration | undefined> {
    return this.generation ? Promise.resolve(this.current()) : this.refresh('all');
  }

  /** Startup preload: reads the route list and every route now. Failures are logged, never thrown (G16). */
  refreshAll(): Promise<CatalogueGeneration | undefined> {
    return this.refresh('all');
  }

  refreshForUnknownTool(name: string, requestedBy?: RequestIds): Promise<CatalogueGeneration | undefined> {
    const due = (this.options.directory.routes() ?? []).filter((route) => this.takeForcedRefreshSlot(route.token));
    if (due.length === 0) return Promise.resolve(this.generation);
    this.options.log.info(
      'catalogue_refresh_forced',
      { reason: 'unknown_tool', tool: printableName(name), routes: due.length },
      requestedBy,
    );
    return this.refresh(new Set(due.map((route) => route.token)));
  }

  reportStaleTool(tool: ToolDefinition, requestedBy?: RequestIds): void {
    if (!this.states.has(tool.routeToken) || !this.takeForcedRefreshSlot(tool.routeToken)) return;
    this.options.log.info('catalogue_refresh_forced', { reason: 'stale_tool', tool: tool.name, route: tool.routeToken }, requestedBy);
    void this.refresh(new Set([tool.routeToken]));
  }

  /**
   * A route's refresh asked for at once (its tool service changed its manifest), so the change reaches
   * listening clients without waiting for the TTL. Single flight per route: the refresh starts after
   * any running one, so it reads the manifest after this request arrived, and requests arriving before
   * it starts share it. At most one starts per route per `requestedRefreshIntervalMillis`; a request
   * that would start another sooner is told when to come back.
   */
  requestRefresh(token: string): Promise<RequestedRefresh> {
    if (this.route(token) === undefined) return Promise.resolve({ outcome: 'unknown-route' });
    const waiting = this.waitingRequests.get(token);
    if (waiting) return waiting;
    const now = this.now();
    const last = this.lastRequestedRefresh.get(token);
    if (last !== undefined && now - last < this.options.requestedRefreshIntervalMillis) {
      return Promise.resolve({ outcome: 'too-soon', retryAfterMillis: last + this.options.requestedRefreshIntervalMillis - now });
    }
    this.lastRequestedRefresh.set(token, now);
    this.options.log.info('catalogue_refresh_requested', { route: token });
    const request = (this.flight?.promise ?? Promise.resolve(undefined))
      .then(() => {
        this.waitingRequests.delete(token);
        return this.refresh(new Set([token]));
      })
      .then((): RequestedRefresh => {
        const route = this.route(token);
        const state = this.states.get(token);
        if (route === undefined) return { outcome: 'unknown-route' }; // the portal dropped it meanwhile
        return {
          outcome: 'refreshed',
          bundle: this.describe(route, this.now()),
          failed: state?.lastError?.at === state?.attemptedAt,
        };
      });
    this.waitingRequests.set(token, request);
    return request;
  }

  private route(token: string): RouteConfig | undefined {
    return this.options.directory.routes()?.find((route) => route.token === token);
  }

  /** Readiness (SPEC G17): the first discovery attempt has ended and a usable snapshot exists. */
  isReady(): boolean {
    return this.discoveryAttempted && this.usable;
  }

  /** Called with each new generation whose tools/list differs from the one before (SPEC G19). */
  onToolsListChanged(listener: ToolsListChangedListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** What `GET /actuator/toolBundles` shows: readiness, the portal, and each route (bundle) in route order. */
  status(): CatalogueStatus {
    const now = this.now();
    return {
      ready: this.isReady(),
      generation: this.generation?.number ?? null,
      toolCount: this.generation?.size ?? 0,
      portal: describePortal(this.options.directory.status()),
      bundles: (this.options.directory.routes() ?? []).map((route) => this.describe(route, now)),
    };
  }

  private describe(route: RouteConfig, now: number): BundleStatus {
    const leftOut = this.collisions.filter((collision) => collision.leftOutOf === route.token).map(collisionRefusal);
    return describeBundle(route, this.states.get(route.token), now, leftOut);
  }

  private takeForcedRefreshSlot(route: string): boolean {
    const last = this.lastForcedRefresh.get(route);
    const now = this.now();
    if (last !== undefined && now - last < this.options.forcedRefreshCooldownMillis) return false;
    this.lastForcedRefresh.set(route, now);
    return true;
  }

  /**
   * Single flight: a refresh asked for while one runs shares its result when the running one covers the
   * same routes; otherwise it starts right after it, and later askers share that one.
   */
  private refresh(forced: Forced): Promise<CatalogueGeneration | undefined> {
    const running = this.flight;
    if (running && covers(running.forced, forced)) return running.promise;
    const promise: Promise<CatalogueGeneration | undefined> = (running?.promise ?? Promise.resolve(undefined))
      .then(() => this.runRefresh(forced))
      .catch((error: unknown) => {
        // Every expected failure is handled inside; this is a bug, and it must not take the process down.
        this.options.log.warn('catalogue_refresh_crashed', { reason: errorMessage(error) });
        return this.generation;
      })
      .finally(() => {
        if (this.flight?.promise === promise) this.flight = undefined;
      });
    this.flight = { forced, promise };
    return promise;
  }

  private async runRefresh(forced: Forced): Promise<CatalogueGeneration | undefined> {
    const { directory } = this.options;
    if (directory.routes() === undefined || this.now() >= directory.dueAt()) await directory.refresh();
    const routes = directory.routes();
    if (routes !== undefined) await this.refreshRoutes(routes, forced);
    this.discoveryAttempted = true;
    this.nextDueAt = Math.min(
      directory.dueAt(),
      ...[...this.states.values()].map((state) => state.attemptedAt + this.options.manifestTtlMillis),
    );
    return this.generation;
  }

  private async refreshRoutes(routes: readonly RouteConfig[], forced: Forced): Promise<void> {
    const now = this.now();
    const next = new Map<string, RouteState>();
    for (const route of routes) {
      const state = this.states.get(route.token);
      if (state) next.set(route.token, state);
    }
    for (const token of this.states.keys()) {
      if (!next.has(token)) this.options.log.info('route_dropped', { route: token });
    }
    const due = routes.filter((route) => this.isDue(route, now, forced));
    const loaded = await Promise.all(due.map((route) => this.loader.load(route, this.states.get(route.token))));
    due.forEach((route, i) => next.set(route.token, loaded[i]));

    const before = this.states;
    const rejection = this.adopt(routes, next);
    if (rejection === undefined) {
      due.forEach((route, i) => {
        if (loaded[i].snapshot !== before.get(route.token)?.snapshot) this.writeThrough(route.token, loaded[i].snapshot);
      });
      return;
    }
    // The whole refresh is refused: old snapshots stay, but the attempt and its error are recorded.
    const error: RouteError = { code: rejection.code, message: rejection.message, at: now };
    this.states = new Map(
      routes.flatMap((route) => {
        const old = this.states.get(route.token);
        const attempt = loaded[due.indexOf(route)];
        if (attempt === undefined) return old ? [[route.token, old] as const] : [];
        return [[route.token, { ...old, signature: attempt.signature, attemptedAt: attempt.attemptedAt, lastError: error }] as const];
      }),
    );
  }

  private isDue(route: RouteConfig, now: number, forced: Forced): boolean {
    const state = this.states.get(route.token);
    if (forced === 'all' || forced.has(route.token) || state === undefined) return true;
    return state.signature !== routeSignature(route) || now >= state.attemptedAt + this.options.manifestTtlMillis;
  }

  /** Merges the routes' snapshots and installs the result; returns why not when the refresh is refused. */
  private adopt(routes: readonly RouteConfig[], next: Map<string, RouteState>): RegistryError | undefined {
    const snapshots = routes.flatMap((route) => {
      const snapshot = next.get(route.token)?.snapshot;
      return snapshot ? [[route.token, snapshot] as const] : [];
    });
    const usable = routes.length === 0 || snapshots.length > 0;
    let merged: MergedRoutes | undefined;
    if (usable || this.generation) {
      try {
        merged = mergeRoutes(snapshots, this.options.limits, (this.generation?.number ?? 0) + 1);
      } catch (error) {
        const rejection = toRegistryError(error, RegistryErrorCode.CatalogueTooLarge);
        this.options.log.warn('catalogue_refresh_rejected', {
          code: rejection.code,
          reason: rejection.message,
          keptGeneration: this.generation?.number,
        });
        return rejection;
      }
    }
    this.states = next;
    this.usable = usable;
    if (merged) {
      this.noteCollisions(merged.collisions);
      this.install(merged.generation);
    }
    return undefined;
  }

  /** Logs each collision once, when it appears: it stays in the bundles' status while it lasts. */
  private noteCollisions(collisions: readonly NameCollision[]): void {
    const known = new Set(this.collisions.map(collisionKey));
    for (const collision of collisions) {
      if (known.has(collisionKey(collision))) continue;
      this.options.log.warn('catalogue_tool_collision', {
        code: RegistryErrorCode.NameCollision,
        tool: printableName(collision.tool),
        servedBy: collision.servedBy,
        leftOutOf: collision.leftOutOf,
      });
    }
    this.collisions = collisions;
  }

  private install(candidate: CatalogueGeneration): void {
    const previous = this.generation;
    // An unchanged catalogue keeps its generation, and with it every per-generation cache.
    if (previous && sameCatalogue(previous, candidate)) return;
    this.generation = candidate;
    this.options.log.info('catalogue_generation_installed', { generation: candidate.number, tools: candidate.size });
    if (previous?.toolsListResult.json === candidate.toolsListResult.json) return;
    for (const listener of this.listeners) listener(candidate);
  }

  /** Best effort, after the generation is installed: only new remote successes reach the shared cache. */
  private writeThrough(route: string, snapshot: RouteSnapshot | undefined): void {
    if (!this.options.cache || snapshot?.source !== 'remote') return;
    void this.options.cache.writeRoute(route, encodeRouteSnapshot(route, snapshot));
  }
}

const collisionKey = (collision: NameCollision) => `${collision.tool}\n${collision.servedBy}\n${collision.leftOutOf}`;

function covers(running: Forced, wanted: Forced): boolean {
  if (running === 'all') return true;
  if (wanted === 'all') return false;
  return [...wanted].every((route) => running.has(route));
}
