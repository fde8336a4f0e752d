import { isModernProtocolVersion, McpMethod } from '@toolmesh/protocol';
import type { RoutingHints, ToolCatalogue, ToolsListForm } from '@toolmesh/registry';
import type { RequestContext } from '@toolmesh/transport-http/server';

import type { ForwardedToolResult, GatewayCallToolResult } from '../call/tool-call-outcome';
import type { GatewayConfig } from '../config/gateway-config';
import type { CallAdmission, RateLimitAdmission } from '../execution/call-admission';
import { legacyCallIdentity, modernCallIdentity } from '../execution/idempotency-key';
import type { ToolExecutionService } from '../execution/tool-execution-service';
import type { CallInterceptors } from '../interceptors/call-interceptors';
import type { SkillCatalogue } from '../skills/skill-catalogue';
import { SkillsMethod } from '../skills/skills-protocol';
import type { GatewayTracing } from '../tracing/tracing';
import type { FederatedFeatures } from '../upstreams/federated-features';
import { CapabilityViews } from './caller-capabilities';
import { ChangeListeners } from './change-notifications/change-listeners';
import { legacyConsent, modernConsent } from './consent-answers';
import { declaredCapabilities } from './declared-capabilities';
import { type AnsweredObserver, createDispatcher, type Dispatcher } from './dispatcher';
import { CallerRequests } from './era-2025/caller-requests';
import { CallsInFlight } from './era-2025/calls-in-flight';
import { Era2025, era2025Methods } from './era-2025/era-2025';
import { initializeHandler } from './era-2025/handlers/initialize';
import { setLevelHandler } from './era-2025/handlers/set-level';
import { SessionLogLevels } from './era-2025/session-log-levels';
import { assumedVersion } from './era-2025/version-check';
import { Era2026, type ModernRequestHandler } from './era-2026/era-2026';
import { discoverHandler } from './era-2026/handlers/discover';
import { emptyPromptsAndResources } from './era-2026/handlers/empty-prompts-and-resources';
import { listenHandler } from './era-2026/handlers/listen';
import { modernCallStream, paramHeaderRefusal } from './era-2026/handlers/tools-call';
import { ModernResults } from './era-2026/modern-results';
import { type EraErrors, legacyErrors, modernErrors } from './era-errors';
import type { RequestHandler } from './handlers/method-handler';
import { resourcesAndPromptsHandlers } from './handlers/resources-and-prompts';
import { skillsMethods } from './handlers/skills-methods';
import { type ToolsCallEra, toolsCallHandler } from './handlers/tools-call';
import { type CatalogueView, toolsListHandler } from './handlers/tools-list';
import type { TaskServing } from './tasks/build-tasks';
import { legacyTaskCalls, modernTaskCalls } from './tasks/task-calls';
import { legacyTaskMethods, modernTaskMethods } from './tasks/task-methods';
import { legacyTaskStatus, modernListenedTasks } from './tasks/task-status-notifications';
import { toolResultShaper } from './tool-result-shaping';
import { CatalogueSearch, type ToolVisibility } from './tool-search/catalogue-search';
import { callingSearchTools, listingSearchTools } from './tool-search/search-tools';

export interface GatewayEras extends Dispatcher {
  /** The open notification streams of both eras. */
  readonly listeners: ChangeListeners;
  /** Whether a POST may be a JSON-RPC batch (2025-03-26 only). */
  readonly acceptsBatch: (context: RequestContext) => boolean;
  /** `search_tools`'s index, when `mcp.toolSearch` is on: re-indexed as each new tool list is installed. */
  readonly search?: CatalogueSearch;
}

/** What the eras are told of besides the catalogue and the calls. */
export interface EraObservers {
  readonly tracing?: GatewayTracing;
  readonly onAnswered?: AnsweredObserver;
}

/** Who may see and call what (SPEC G27): both absent when nobody is authenticated nor limited. */
export interface CallerAccess {
  /** Per-caller tool lists; with it, 2026 lists are `cacheScope: "private"`. */
  readonly view?: CatalogueView;
  readonly admit?: CallAdmission;
  /** The rate limits alone, for `search_tools`. */
  readonly limit?: RateLimitAdmission;
  /** The interceptors guarding tool calls (issue 46): absent when none is configured. */
  readonly intercept?: CallInterceptors;
}

/** Both protocol eras on the one endpoint, sharing the catalogue and the execution service (SPEC G25). */
export function buildEras(
  mcp: GatewayConfig['mcp'],
  catalogue: ToolCatalogue,
  execution: ToolExecutionService,
  routingHints: RoutingHints,
  { tracing, onAnswered }: EraObservers = {},
  { view, admit, limit, intercept }: CallerAccess = {},
  /** The MCP servers' resources and prompts: given only when some bundle is an MCP server (else neither is declared). */
  features?: FederatedFeatures,
  /** The gateway's own skills (issue 49): given only when some source is configured; they bring the resources methods. */
  skills?: SkillCatalogue,
  /** Long calls as tasks (issue 47): given only when `mcp.tasks.enabled`; they bring the `tasks/*` methods. */
  tasks?: TaskServing,
): GatewayEras {
  const served = mcp.protocol.supportedVersions;
  const modernVersions = served.filter(isModernProtocolVersion);
  const legacyVersions = served.filter((version) => !isModernProtocolVersion(version));
  const allSupported = [...modernVersions, ...legacyVersions];
  const listeners = new ChangeListeners(mcp.notifications);
  // Resource list changes are told when skills of the gateway's own change, or what an MCP server told (issue 49).
  const resourcesChange = skills !== undefined || features !== undefined;
  // Tools an MCP server lists only to clients declaring a capability are shown to callers that declare it (issue 44).
  const shownByCapabilities = new CapabilityViews(mcp.catalogue.toolsListPageSize);
  // search_tools (G30) wraps an era's tools/list and tools/call only when it is on: off, they are untouched.
  const search = mcp.toolSearch ? new CatalogueSearch(catalogue, view && visibleThrough(view, catalogue)) : undefined;
  const withSearch = {
    list: (handler: RequestHandler) => (search ? listingSearchTools(handler, search) : handler),
    call: (handler: RequestHandler, form: ToolsListForm, errors: EraErrors) =>
      search ? callingSearchTools(handler, search, form, errors, shownByCapabilities, limit) : handler,
  };

  const callerRequests = new CallerRequests();
  const inFlight = new CallsInFlight();
  const logLevels = new SessionLogLevels(mcp.maxSessionLogLevels);
  const pageSize = mcp.catalogue.toolsListPageSize;
  // The skills methods wrap the resources methods they ride on (skills-methods.ts); without skills, these are unchanged.
  // The MCP servers' skills are served beside the gateway's own: with an MCP server bundle the extension is always declared.
  const withSkills = (served: ReadonlyArray<[string, RequestHandler]>, errors: EraErrors) =>
    skills || features
      ? skillsMethods(
          { ...(skills && { own: skills }), ...(features && { federated: async () => (await features.lists()).skills }) },
          served,
          errors,
          pageSize,
        )
      : served;
  // A 2025 caller's answer from an MCP server, a call's, a get's or a read's: an event stream once the server asks it or tells it something.
  const legacyStream: ToolsCallEra['streamToCaller'] = (id, params, context) =>
    inFlight.tracked(id, context, callerRequests.relayFor(id, params, context, logLevels.of(context)));
  const legacyMethods = era2025Methods(
    {
      toolsList: withSearch.list(toolsListHandler(catalogue, 'legacy', legacyErrors, shownByCapabilities, view)),
      toolsCall: withSearch.call(
        toolsCallHandler(
          execution,
          {
            errors: legacyErrors,
            identify: legacyCallIdentity,
            shapeResult: toolResultShaper('legacy', mcp.defaultMaxResultChars),
            streamToCaller: legacyStream,
            consent: legacyConsent,
            ...(tasks && { tasks: legacyTaskCalls }),
          },
          tracing,
          admit,
          intercept,
        ),
        'legacy',
        legacyErrors,
      ),
    },
    [
      ...withSkills(features ? resourcesAndPromptsHandlers(features, legacyErrors, pageSize, legacyStream) : [], legacyErrors),
      // Logging only with an MCP server bundle: its servers' log messages are the only ones a caller gets (issue 44).
      ...(features ? [[McpMethod.LoggingSetLevel, setLevelHandler(logLevels)] as [string, RequestHandler]] : []),
      ...(tasks ? legacyTaskMethods(taskDeps(tasks, execution, 'legacy', mcp.defaultMaxResultChars), tasks.withList) : []),
    ],
  );
  const initialize = initializeHandler(
    {
      supportedVersions: legacyVersions,
      preferredVersion: mcp.protocol.preferredVersion,
      serverInfo: mcp.serverInfo,
      capabilities: declaredCapabilities(legacyMethods, {}, resourcesChange),
    },
    () => routingHints.current(),
  );
  const legacy = new Era2025(
    new Map([[McpMethod.Initialize, initialize], ...legacyMethods]),
    {
      supportedVersions: legacyVersions,
      allSupported,
      assumeVersionWhenMissing: assumedVersion(mcp.protocol.assumeVersionWhenMissing, legacyVersions),
    },
    listeners,
    callerRequests,
    inFlight,
    tasks && legacyTaskStatus(tasks),
  );

  const results = new ModernResults(mcp.serverInfo, mcp.catalogue.refreshTtlMillis);
  const modernMethods = new Map<string, ModernRequestHandler>([
    [
      McpMethod.ToolsList,
      // A list shown per caller (or per declared capabilities) is for that caller alone: no shared cache may serve it to another.
      results.adapt(withSearch.list(toolsListHandler(catalogue, 'modern', modernErrors, shownByCapabilities, view)), () =>
        results.cacheable(view || shownPerCapabilities(shownByCapabilities, catalogue) ? 'private' : 'public'),
      ),
    ],
    [
      McpMethod.ToolsCall,
      results.adapt(
        withSearch.call(
          toolsCallHandler(
            execution,
            {
              errors: modernErrors,
              identify: modernCallIdentity,
              refuse: paramHeaderRefusal,
              shapeResult: toolResultShaper('modern', mcp.defaultMaxResultChars),
              streamToCaller: modernCallStream(results),
              consent: modernConsent,
              ...(tasks && { tasks: modernTaskCalls(results.meta) }),
            },
            tracing,
            admit,
            intercept,
          ),
          'modern',
          modernErrors,
        ),
        () => results.complete(),
      ),
    ],
    [
      McpMethod.SubscriptionsListen,
      listenHandler(
        listeners,
        results.meta,
        resourcesChange,
        tasks && modernListenedTasks(taskDeps(tasks, execution, 'modern', mcp.defaultMaxResultChars), mcp.tasks.listPageSize),
      ),
    ],
    ...(tasks ? modernTaskMethods(taskDeps(tasks, execution, 'modern', mcp.defaultMaxResultChars), results.meta) : []),
    // Without an MCP server bundle, 2026 clients still get the empty lists (see empty-prompts-and-resources.ts).
    ...(features ? [] : emptyPromptsAndResources(results)),
    ...modernResourcesAndPrompts(
      withSkills(features ? resourcesAndPromptsHandlers(features, modernErrors, pageSize) : [], modernErrors),
      results,
      // A caller's skills are those its scopes allow: with authentication a skills list is its alone.
      skills && view ? 'private' : 'public',
    ),
  ]);
  // Every version served, 2026 first: a client may pick any, as a -32022 offers them.
  // 2026-07-28 has no setLevel: `logging` is declared for the MCP servers' log messages relayed on calls' streams.
  const capabilities = declaredCapabilities(modernMethods, features ? { logging: {} } : {}, resourcesChange);
  const discover = discoverHandler({ supportedVersions: allSupported, capabilities }, () => results.cacheable());
  const modern = new Era2026(new Map([[McpMethod.ServerDiscover, discover], ...modernMethods]), {
    servedVersions: modernVersions,
    allSupported,
  });
  return { ...createDispatcher({ modern, legacy }, onAnswered), listeners, acceptsBatch: legacy.acceptsBatch, ...(search && { search }) };
}

/** The `tasks/*` handlers' parts: a task's result shaped as the era shapes a call's (the tool's output budget). */
function taskDeps(
  tasks: TaskServing,
  execution: ToolExecutionService,
  era: 'legacy' | 'modern',
  defaultMaxResultChars: number | undefined,
) {
  const shape = toolResultShaper(era, defaultMaxResultChars);
  return {
    tasks: tasks.service,
    headersFor: tasks.headersFor,
    ...(tasks.federated && { federated: tasks.federated }),
    shape: (record: { tool: string }, result: GatewayCallToolResult | ForwardedToolResult) => {
      const tool = execution.toolInMemory(record.tool);
      return tool ? shape(tool, result) : result;
    },
  };
}

/** Whether the catalogue in memory shows some callers tools it hides from others, by their declared capabilities. */
function shownPerCapabilities(capabilities: CapabilityViews, catalogue: ToolCatalogue): boolean {
  const generation = catalogue.current();
  return generation !== undefined && capabilities.gated(generation);
}

/** `search_tools` shows a caller only what its `tools/list` shows it: the one per-caller filter (SPEC G27). */
function visibleThrough(view: CatalogueView, catalogue: ToolCatalogue): ToolVisibility {
  return (tool, context) => {
    const generation = catalogue.current();
    return generation !== undefined && view(generation, context.caller).tools.has(tool.publicTool.name);
  };
}

/**
 * The resources, prompts and skills methods at 2026-07-28: lists cacheable like the tool list (the MCP
 * servers' are the same for every caller: no caller's token reaches a server; the skills' are per caller
 * with authentication, `skillsScope`), reads never cached (a resource may change at any time).
 */
function modernResourcesAndPrompts(
  handlers: ReadonlyArray<[string, RequestHandler]>,
  results: ModernResults,
  skillsScope: 'public' | 'private',
): Array<[string, ModernRequestHandler]> {
  const members: Record<string, () => Record<string, unknown>> = {
    [McpMethod.ResourcesRead]: () => results.uncached(),
    [McpMethod.PromptsGet]: () => results.complete(),
    // The server's suggestions for what was typed so far: never served from a cache.
    [McpMethod.CompletionComplete]: () => results.uncached(),
    [McpMethod.ResourcesList]: () => results.cacheable(skillsScope),
    [SkillsMethod.List]: () => results.cacheable(skillsScope),
    [SkillsMethod.Get]: () => results.cacheable(skillsScope),
    [SkillsMethod.DirectoryRead]: () => results.cacheable(skillsScope),
  };
  return handlers.map(([method, handler]) => [method, results.adapt(handler, members[method] ?? (() => results.cacheable()))]);
}
