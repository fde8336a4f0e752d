import type { DocumentServer } from '@toolmesh/test-peers/document-server';

import { type CatalogueLog, HttpJsonSource, type RouteConfig } from '../../index';

// Building blocks of the registry's catalogue specs: manifests, routes on a DocumentServer, a log and a clock.
// Here rather than in tools/test because it is the registry's own: a shared helper importing the registry
// would make every project's specs depend on it in the Nx graph (and on the registry's changes).

export const SCHEMA = { type: 'object' };

/** A manifest offering the named tools, each at `/tools/<name>` under the route's service domain. */
export const manifestOf = (...names: string[]) => ({
  revision: `r-${names.join('+')}`,
  tools: names.map((name) => ({ name, inputSchema: SCHEMA, endpoint: `/tools/${name}` })),
});

/** Log events as `event:code` (or just `event`), in order. */
export function capturedLog(): CatalogueLog & { events: string[]; of(event: string): string[] } {
  const events: string[] = [];
  const record = (event: string, fields: Record<string, unknown>) =>
    events.push(fields.code === undefined ? event : `${event}:${String(fields.code)}`);
  return { events, info: record, warn: record, of: (event) => events.filter((e) => e.split(':')[0] === event) };
}

/** A clock the test moves by hand (wall-clock ms). */
export function manualClock(start = 1_800_000_000_000) {
  let now = start;
  return { now: () => now, advance: (millis: number) => (now += millis) };
}

export const FETCH_LIMITS = { timeoutMillis: 2_000, maxBytes: 1_000_000 };

/** A route of one tool service whose manifest the server serves at `/<token>/tool-manifest`. */
export function routeOn(server: DocumentServer, token: string, extra: Partial<RouteConfig> = {}): RouteConfig {
  const serviceDomain = `${server.url}/${token}`;
  return {
    token,
    services: [{ serviceDomain, manifest: new HttpJsonSource(new URL(`${serviceDomain}/tool-manifest`), FETCH_LIMITS) }],
    ...extra,
  };
}

export const manifestPath = (token: string) => `/${token}/tool-manifest`;

/** The tool names of a tools/list result body. */
export const listedNames = (json: string | undefined): string[] | undefined =>
  json === undefined ? undefined : (JSON.parse(json) as { tools: Array<{ name: string }> }).tools.map((tool) => tool.name);
