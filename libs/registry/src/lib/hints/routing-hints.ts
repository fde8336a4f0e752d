import { RegistryErrorCode, toRegistryError } from '../errors';
import type { CatalogueLog } from '../model/catalogue-log';
import { type RouteConfig, routeSignature } from '../model/route';

/** One route's routing hint: each enabled tool service's `/tool-service-manifest`, as published. */
export interface ToolServerHint {
  readonly route: string;
  readonly toolServices: readonly unknown[];
}

export interface RoutingHintsOptions {
  /** The catalogue's current routes (the directory's, never fetched here). */
  readonly routes: () => readonly RouteConfig[] | undefined;
  /** `mcp.routingHints.refreshTtlMillis`. */
  readonly ttlMillis: number;
  readonly log: CatalogueLog;
  readonly now?: () => number;
}

/**
 * Routing hints for `initialize` (`_meta.toolServers`, SPEC G18), with their own TTL and per-route last
 * good. Like the catalogue, no timer: `current()` answers from memory and, when the TTL expired or the
 * routes' configuration changed, starts one background refresh. A route whose lookup never worked is
 * left out; with none, there is no hint at all.
 */
export class RoutingHints {
  private readonly lastGood = new Map<string, ToolServerHint>();
  private dueAt = Number.NEGATIVE_INFINITY;
  /** The routes' configuration the hints were loaded for; a change (portal update) makes them due at once. */
  private loadedFor = '';
  private flight: Promise<void> | undefined;
  private readonly now: () => number;

  constructor(private readonly options: RoutingHintsOptions) {
    this.now = options.now ?? Date.now;
  }

  current(): ToolServerHint[] | undefined {
    if (this.flight === undefined && (this.now() >= this.dueAt || this.configuration() !== this.loadedFor)) void this.refresh();
    return this.lastGood.size === 0 ? undefined : [...this.lastGood.values()];
  }

  refresh(): Promise<void> {
    this.flight ??= this.load().finally(() => (this.flight = undefined));
    return this.flight;
  }

  private configuration(): string {
    return (this.options.routes() ?? []).map(routeSignature).join('\n');
  }

  private async load(): Promise<void> {
    this.dueAt = this.now() + this.options.ttlMillis;
    this.loadedFor = this.configuration();
    const routes = (this.options.routes() ?? []).filter((route) => route.services.some((service) => service.routingHint));
    const tokens = new Set(routes.map((route) => route.token));
    for (const token of this.lastGood.keys()) if (!tokens.has(token)) this.lastGood.delete(token);
    await Promise.all(routes.map((route) => this.loadRoute(route)));
  }

  private async loadRoute(route: RouteConfig): Promise<void> {
    try {
      const toolServices = await Promise.all(
        route.services.flatMap((service) => (service.routingHint ? [service.routingHint.fetch()] : [])),
      );
      this.lastGood.set(route.token, { route: route.token, toolServices });
    } catch (error) {
      const { code, message } = toRegistryError(error, RegistryErrorCode.RoutingHintUnavailable);
      this.options.log.warn('routing_hint_refresh_failed', {
        code,
        route: route.token,
        reason: message,
        kept: this.lastGood.has(route.token),
      });
    }
  }
}
