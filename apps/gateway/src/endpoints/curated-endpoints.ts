import type { LiveCatalogue, RoutingHints, ToolCatalogue } from '@toolmesh/registry';
import type { Authenticator, Logger, McpEndpointApp } from '@toolmesh/transport-http/server';

import type { ProtectedResource } from '../auth/protected-resource';
import { curatedPath, type EndpointSettings } from '../config/endpoint-settings';
import type { GatewayConfig } from '../config/gateway-config';
import type { RateLimitAdmission } from '../execution/call-admission';
import type { ToolExecutionService } from '../execution/tool-execution-service';
import { buildEras, type CallerAccess, type EraObservers, type GatewayEras } from '../mcp/build-eras';
import { connectCatalogueChanges } from '../mcp/change-notifications/catalogue-changes';
import type { ChangeListeners } from '../mcp/change-notifications/change-listeners';
import { CuratedCatalogue } from './curated-catalogue';
import { endpointAccess, requiringScopes } from './endpoint-access';
import { OPERATOR_META_KEY, type OperatorMarker, ToolSelection } from './tool-selection';

/** What the curated endpoints are built from: the gateway's own parts, shared. */
export interface CuratedEndpointParts {
  readonly mcp: GatewayConfig['mcp'];
  readonly catalogue: LiveCatalogue;
  readonly execution: ToolExecutionService;
  readonly routingHints: RoutingHints;
  readonly observers: EraObservers;
  /** The gateway's own checks of callers, which every endpoint's calls pass too. */
  readonly access: CallerAccess;
  /** With `auth`: the gateway's authenticator and protected resource, which an endpoint's scopes are checked after. */
  readonly authentication?: {
    readonly authenticate: Authenticator;
    readonly resource: ProtectedResource;
    readonly onForbidden?: () => void;
  };
  /** An endpoint's own rate limits as an admission, counted apart under its name. */
  readonly rateLimitsOf: (endpoint: EndpointSettings) => RateLimitAdmission | undefined;
  readonly logger: Logger;
}

/** One endpoint as `/actuator/toolBundles` shows it. */
export interface EndpointDescription {
  readonly name: string;
  readonly path: string;
  readonly scopes: readonly string[];
  readonly rateLimited: boolean;
  readonly toolSearch: boolean;
  /** The tools it serves now, by the name it shows, with what the operator changed. */
  readonly tools: ReadonlyArray<{ name: string; bundle: string; aliasOf?: string; changed?: readonly string[] }>;
  readonly leftOut: ReadonlyArray<{ tool: string; shownAs: string; reason: string }>;
}

/** What an endpoint serves: its view of the catalogue, and whether it offers `search_tools`. */
export interface EndpointView {
  readonly catalogue: Pick<ToolCatalogue, 'current'>;
  readonly toolSearch: boolean;
}

export interface CuratedEndpoints {
  /** For the HTTP front. */
  readonly apps: readonly McpEndpointApp[];
  /** The endpoint of that name's view (the audit trail names a tool by it: an alias is its catalogue tool). */
  view(name: string): EndpointView | undefined;
  /** Their open notification streams together. */
  openStreams(): number;
  /** Each one's notification streams, for what is told to a caller rather than about the catalogue (an elicitation's completion, issue 48). */
  readonly listeners: readonly ChangeListeners[];
  describe(): EndpointDescription[];
  /** Shutdown: their change notifications stopped and their streams ended. */
  stop(): void;
}

interface CuratedEndpoint {
  readonly settings: EndpointSettings;
  readonly path: string;
  readonly catalogue: CuratedCatalogue;
  readonly eras: GatewayEras;
  readonly toolSearch: boolean;
  readonly stop: () => void;
}

/**
 * The curated endpoints of `mcp.endpoints` (issue 46; docs/gateway.md, "Curated endpoints"). Each is both
 * protocol eras over its own view of the catalogue (CuratedCatalogue), as the default endpoint is over the
 * whole: its own method tables, notification streams (told when its subset changes, not the rest), its
 * own `search_tools` when its switch is on; the execution service, catalogue, rate limit store and
 * authenticator are the gateway's. Tools only: an MCP server's resources and prompts and the skills stay
 * on the default endpoint. With none configured nothing is built.
 */
export function buildCuratedEndpoints(parts: CuratedEndpointParts): CuratedEndpoints {
  const endpoints = (parts.mcp.endpoints ?? []).map((settings) => curatedEndpoint(settings, parts));
  const byName = new Map(endpoints.map((endpoint) => [endpoint.settings.name, endpoint]));
  return {
    apps: endpoints.map((endpoint) => frontApp(endpoint, parts)),
    view: (name) => byName.get(name),
    openStreams: () => endpoints.reduce((open, endpoint) => open + endpoint.eras.listeners.size, 0),
    listeners: endpoints.map((endpoint) => endpoint.eras.listeners),
    describe: () => endpoints.map(description),
    stop: () => {
      for (const endpoint of endpoints) endpoint.stop();
    },
  };
}

function curatedEndpoint(settings: EndpointSettings, parts: CuratedEndpointParts): CuratedEndpoint {
  const { mcp, logger } = parts;
  const catalogue = new CuratedCatalogue(parts.catalogue, new ToolSelection(settings, mcp.catalogue.toolsListPageSize));
  const toolSearch = settings.toolSearch ?? mcp.toolSearch;
  const eras = buildEras(
    { ...mcp, toolSearch },
    catalogue,
    parts.execution.over(catalogue),
    parts.routingHints,
    parts.observers,
    endpointAccess(parts.access, parts.rateLimitsOf(settings)),
  );
  // Its listeners are told of its own subset's changes; the gateway's catalogue is refreshed, and other
  // replicas told, by the default endpoint's connection, which runs whatever is configured.
  const notifications = connectCatalogueChanges({
    catalogue,
    listeners: eras.listeners,
    refreshTtlMillis: mcp.catalogue.refreshTtlMillis,
    logger,
  });
  const stopIndexing = eras.search && catalogue.onToolsListChanged((generation) => eras.search?.reindex(generation));
  return {
    settings,
    path: curatedPath(mcp.endpointPath, settings),
    catalogue,
    eras,
    toolSearch,
    stop: () => {
      notifications.stop();
      stopIndexing?.();
      eras.listeners.closeAll();
    },
  };
}

function frontApp({ settings, path, eras }: CuratedEndpoint, parts: CuratedEndpointParts): McpEndpointApp {
  const { authentication, mcp } = parts;
  const scopes = settings.scopes;
  return {
    name: settings.name,
    path,
    dispatch: eras.dispatch,
    dispatchGet: eras.dispatchGet,
    ...(eras.onAnswered && { onAnswered: eras.onAnswered }),
    batches: { accepts: eras.acceptsBatch, maxMembers: mcp.maxBatchMembers, maxResponseBytes: mcp.maxBatchResponseBytes },
    ...(authentication &&
      scopes !== undefined && {
        authenticate: requiringScopes(
          authentication.authenticate,
          authentication.resource,
          { name: settings.name, scopes },
          authentication.onForbidden,
        ),
      }),
  };
}

function description({ settings, path, catalogue, toolSearch }: CuratedEndpoint): EndpointDescription {
  const latest = catalogue.latest();
  const tools = [...(latest?.generation.tools.values() ?? [])].map((tool) => {
    const marker = (tool.publicTool._meta as Record<string, unknown> | undefined)?.[OPERATOR_META_KEY] as OperatorMarker | undefined;
    return {
      name: tool.publicTool.name,
      bundle: tool.routeToken,
      ...(marker && { changed: marker.changed }),
      ...(marker?.aliasOf && { aliasOf: marker.aliasOf }),
    };
  });
  return {
    name: settings.name,
    path,
    scopes: settings.scopes ?? [],
    rateLimited: settings.rateLimits !== undefined,
    toolSearch,
    tools,
    leftOut: latest?.leftOut ?? [],
  };
}
