import { isModernProtocolVersion, McpMethod } from '@toolmesh/protocol';
import type { RoutingHints, ToolCatalogue } from '@toolmesh/registry';
import type { McpDispatcher, McpGetHandler, RequestContext } from '@toolmesh/transport-http/server';
import type { GatewayConfig } from '../config/gateway-config';
import { legacyCallIdentity, modernCallIdentity } from '../execution/idempotency-key';
import type { ToolExecutionService } from '../execution/tool-execution-service';
import { ChangeListeners } from './change-notifications/change-listeners';
import { declaredCapabilities } from './declared-capabilities';
import { createDispatcher } from './dispatcher';
import { Era2025, era2025Methods } from './era-2025/era-2025';
import { initializeHandler } from './era-2025/handlers/initialize';
import { legacyStructuredContent } from './era-2025/handlers/tools-call';
import { Era2026, type ModernRequestHandler } from './era-2026/era-2026';
import { discoverHandler } from './era-2026/handlers/discover';
import { emptyPromptsAndResources } from './era-2026/handlers/empty-prompts-and-resources';
import { listenHandler } from './era-2026/handlers/listen';
import { modernToolsCallHandler } from './era-2026/handlers/tools-call';
import { ModernResults } from './era-2026/modern-results';
import { toolsCallHandler } from './handlers/tools-call';
import { toolsListHandler } from './handlers/tools-list';
import type { GatewayTracing } from '../tracing/tracing';

export interface GatewayEras {
  readonly dispatch: McpDispatcher;
  readonly dispatchGet: McpGetHandler;
  /** The open notification streams of both eras. */
  readonly listeners: ChangeListeners;
  /** Whether a POST may be a JSON-RPC batch (2025-03-26 only). */
  readonly acceptsBatch: (context: RequestContext) => boolean;
}

/** Both protocol eras on the one endpoint, sharing the catalogue and the execution service (SPEC G25). */
export function buildEras(
  mcp: GatewayConfig['mcp'],
  catalogue: ToolCatalogue,
  execution: ToolExecutionService,
  routingHints: RoutingHints,
  tracing?: GatewayTracing,
): GatewayEras {
  const served = mcp.protocol.supportedVersions;
  const modernVersions = served.filter(isModernProtocolVersion);
  const legacyVersions = served.filter((version) => !isModernProtocolVersion(version));
  const allSupported = [...modernVersions, ...legacyVersions];
  const listeners = new ChangeListeners(mcp.notifications.maxOpenStreams);

  const legacyMethods = era2025Methods({
    toolsList: toolsListHandler(catalogue, 'legacy'),
    toolsCall: toolsCallHandler(execution, legacyCallIdentity, tracing, legacyStructuredContent(catalogue)),
  });
  const initialize = initializeHandler(
    {
      supportedVersions: legacyVersions,
      preferredVersion: mcp.protocol.preferredVersion,
      serverInfo: mcp.serverInfo,
      capabilities: declaredCapabilities(legacyMethods),
    },
    () => routingHints.current(),
  );
  const legacy = new Era2025(
    new Map([[McpMethod.Initialize, initialize], ...legacyMethods]),
    { supportedVersions: legacyVersions, allSupported, assumeVersionWhenMissing: mcp.protocol.assumeVersionWhenMissing },
    listeners,
  );

  const results = new ModernResults(mcp.serverInfo, mcp.catalogue.refreshTtlMillis);
  const modernMethods = new Map<string, ModernRequestHandler>([
    [McpMethod.ToolsList, results.adapt(toolsListHandler(catalogue, 'modern'), () => results.cacheable())],
    [McpMethod.ToolsCall, modernToolsCallHandler(catalogue, results.adapt(toolsCallHandler(execution, modernCallIdentity, tracing), () => results.complete()))],
    [McpMethod.SubscriptionsListen, listenHandler(listeners, results.meta)],
    ...emptyPromptsAndResources(results),
  ]);
  // Every version served, 2026 first: a client may pick any, as a -32022 offers them.
  const discover = discoverHandler({ supportedVersions: allSupported, capabilities: declaredCapabilities(modernMethods) }, () => results.cacheable());
  const modern = new Era2026(new Map([[McpMethod.ServerDiscover, discover], ...modernMethods]), { servedVersions: modernVersions, allSupported });
  return { ...createDispatcher({ modern, legacy }), listeners, acceptsBatch: legacy.acceptsBatch };
}
