import type { RateLimitsSettings } from './gateway-config';

/**
 * One curated endpoint (issue 46; docs/gateway.md, "Curated endpoints"): a chosen subset of the catalogue
 * served on a path of its own, with the operator's names and words for its tools, its own required scopes,
 * rate limits and search switch. The default endpoint (`mcp.endpointPath`) is not one of them.
 */
export interface EndpointSettings {
  /** Its name in logs, the request context, `/actuator/toolBundles`; its path is `<mcp.endpointPath>/<name>` unless `path` says. */
  name: string;
  path?: string;
  /** Which tools it serves: every tool any entry selects, in the catalogue's order. */
  serve: ToolSelector[];
  /** What the operator changes of a selected tool, by the tool's name in the catalogue. */
  overrides?: Record<string, ToolOverride>;
  /** With `auth`: every scope a caller's token must grant to use the endpoint at all (beside each tool's own). */
  scopes?: string[];
  /** Limits of this endpoint's tool calls, counted apart from the gateway's `rateLimits` (which apply too). */
  rateLimits?: Partial<RateLimitsSettings>;
  /** Offer `search_tools` over the endpoint's tools; unset, as `mcp.toolSearch`. */
  toolSearch?: boolean;
}

/** The tools of a bundle, the tools whose name matches a pattern (`*` any characters), or the tools of an OpenAPI tag. */
export type ToolSelector = { readonly bundle: string } | { readonly tools: string } | { readonly tag: string };

/** The operator's version of a tool: another name (an alias: the catalogue's name is then not served here), description or annotations. */
export interface ToolOverride {
  name?: string;
  description?: string;
  /** Replaces the tool's annotations whole: every hint is then the operator's word. */
  annotations?: Record<string, string | boolean>;
}

/** Where an endpoint is served. */
export function curatedPath(defaultPath: string, endpoint: Pick<EndpointSettings, 'name' | 'path'>): string {
  return endpoint.path ?? `${defaultPath.replace(/\/+$/, '')}/${endpoint.name}`;
}
