import type { Writable } from 'node:stream';

import { DEFAULT_MAX_DEPTH } from '@toolmesh/protocol';
import type { CatalogueGeneration } from '@toolmesh/registry';
import { createLogger, createMcpHttpApp, type DispatchOutcome, listenHttp, type Logger } from '@toolmesh/transport-http/server';

import { AuditTrail } from '../audit/audit-trail';
import { BundleTokenExchanges } from '../auth/bundle-token-exchanges';
import { otlpExportOf } from '../call/otlp-export';
import { RequestStateSeal } from '../call/request-state-seal';
import { ServiceCredentials } from '../call/service-credentials';
import type { GatewayConfig } from '../config/gateway-config';
import { approvalEndpoint } from '../definitions/approval-endpoint';
import { buildCuratedEndpoints } from '../endpoints/curated-endpoints';
import { featureStateBinding } from '../execution/request-state-binding';
import { ToolConcurrencyLimit } from '../execution/tool-concurrency-limit';
import { ToolExecutionService } from '../execution/tool-execution-service';
import { buildCallInterceptors } from '../interceptors/call-interceptors';
import { GatewayMetrics, type RequestOutcome } from '../management/gateway-metrics';
import { startManagementServer } from '../management/health-server';
import { buildEras, type EraObservers } from '../mcp/build-eras';
import { connectCatalogueChanges } from '../mcp/change-notifications/catalogue-changes';
import { connectElicitationCompletions } from '../mcp/change-notifications/elicitation-completions';
import { connectFederatedResourceChanges } from '../mcp/change-notifications/federated-resource-changes';
import { connectSkillChanges } from '../mcp/change-notifications/skill-changes';
import { connectTaskStatusChanges } from '../mcp/change-notifications/task-status-changes';
import { buildTasks } from '../mcp/tasks/build-tasks';
import { resolveCallerIdentity } from '../tool-client/caller-identity';
import { UndiciToolClient } from '../tool-client/undici-tool-client';
import { GatewayTracing } from '../tracing/tracing';
import { FederatedFeatures } from '../upstreams/federated-features';
import { McpUpstreams } from '../upstreams/mcp-upstreams';
import { refreshOnUpstreamChanges } from '../upstreams/upstream-tool-changes';
import { auditNames } from './audit-names';
import { buildCallerAccess } from './build-caller-access';
import { buildCatalogue } from './build-catalogue';
import { buildConsent } from './build-consent';
import { buildDefinitionPins } from './build-definition-pins';
import { buildSkills } from './build-skills';
import { buildUserTokenVault } from './build-user-token-vault';

export interface RunningGateway {
  /** The MCP endpoint, e.g. `http://127.0.0.1:8080/mcp`. */
  readonly mcpUrl: string;
  readonly managementUrl: string;
  readonly logger: Logger;
  /**
   * Called with each new catalogue generation whose tool list differs from the previous one (SPEC G19);
   * the hook for `notifications/tools/list_changed` (G21). Returns the unsubscribe function.
   */
  onToolsListChanged(listener: (generation: CatalogueGeneration) => void): () => void;
  /**
   * Graceful stop: readiness DOWN and new work refused at once, in-flight calls drained for at most
   * `mcp.shutdownDrainMillis`, then what still runs is cut (its tool calls aborted) and everything closed.
   */
  stop(): Promise<void>;
}

export interface StartOptions {
  env: NodeJS.ProcessEnv;
  /** Where log lines go (standard output by default). */
  logStream?: Writable;
  /** Wall clock in ms for the catalogue's TTLs and cooldowns; tests move their own. */
  now?: () => number;
}

/**
 * A reply's `data` goes out as `structuredContent`, two levels deeper in the response than in the reply
 * (`{"result": {"structuredContent": ...}}`), and wrapped once more for 2025 clients: so that the response
 * stays within what parsers accept (the gateway's own, DEFAULT_MAX_DEPTH), a reply may nest two fewer levels.
 */
const MAX_REPLY_DEPTH = DEFAULT_MAX_DEPTH - 2;

/** The composition root: builds every part of the gateway from its configuration and starts it. */
export async function startGateway(config: GatewayConfig, options: StartOptions): Promise<RunningGateway> {
  const { mcp } = config;
  const logger = createLogger({ ...config.logging, stream: options.logStream });
  const credentials = new ServiceCredentials(mcp.bundles, options.env);
  const upstreams = new McpUpstreams(mcp.bundles, {
    clientInfo: { name: mcp.serverInfo.name, version: mcp.serverInfo.version },
    credentials,
    listTimeoutMillis: mcp.catalogue.manifestTimeoutMillis,
    heldCalls: mcp.heldCalls,
    maxRelayedRequestsPerCall: mcp.maxRelayedRequestsPerCall,
    logger,
  });
  // The audit trail is opened below, over the catalogue; a notice comes at a refresh, once it is.
  const pins = buildDefinitionPins(mcp, credentials, logger, () => audit);
  // Tools that act as the user (issue 48): the consent flow, and the vault it fills and refreshes through.
  const consent = buildConsent(config, credentials, logger);
  const userTokens = consent && buildUserTokenVault(config, credentials, consent.refresh, pins.approvalToken, logger);
  const { catalogue, routingHints, cache, changes } = buildCatalogue(mcp, logger, options.now ?? Date.now, upstreams, pins.definitions);
  // Said once at start: an MRTR retry that reaches another replica fails until the replicas share a key.
  if (mcp.requestStateKey === undefined) logger.warn('request_state_key_generated', { setting: 'mcp.requestStateKey' });
  const toolClient = new UndiciToolClient({
    connectionsPerOrigin: mcp.toolClient.connectionsPerOrigin,
    maxReplyBytes: mcp.maxBodyBytes * 8,
    maxReplyDepth: MAX_REPLY_DEPTH,
  });
  let openStreams = () => 0; // the eras, which hold the streams, are built below: the gauge reads them at scrape time
  const metrics = config.server.metricsEnabled
    ? new GatewayMetrics({
        catalogue: () => catalogue.status(),
        openStreams: () => openStreams(),
        ...(cache && { redisAvailable: () => cache.isAvailable() }),
      })
    : undefined;
  const access = buildCallerAccess(config, logger, metrics);
  const names = auditNames(mcp, catalogue, () => curated);
  // OpenTelemetry (ADR 0015, 0030): the traces and the audit trail's log records go to one collector.
  const otlp = otlpExportOf(options.env, mcp.serverInfo.version);
  const audit = AuditTrail.open(config.audit, names, options.env, logger, otlp);
  const intercept = buildCallInterceptors(config.interceptors, credentials);
  const exchanges =
    config.auth &&
    BundleTokenExchanges.of(
      mcp.bundles,
      { timeoutMillis: mcp.catalogue.manifestTimeoutMillis, maxEntries: config.auth.maxCachedTokens },
      credentials,
    );
  // One seal for every MRTR round, a tool's call's or a prompt's or resource's (issue 44).
  const requestStates = RequestStateSeal.fromSecret(mcp.requestStateKey, mcp.requestStateTtlSeconds);
  // Long calls (issue 47): a long tool's 202 Accepted waited for, or made a task.
  const tasks = buildTasks(
    config,
    toolClient,
    resolveCallerIdentity(options.env),
    { forwardAuthorization: mcp.forwardAuthorization, ...(access.identityHeaders && { identityHeaders: access.identityHeaders }) },
    (name) => catalogue.current()?.tools.get(name),
    upstreams,
    logger,
  );
  const execution = new ToolExecutionService({
    catalogue,
    client: toolClient,
    caller: resolveCallerIdentity(options.env),
    settings: {
      maxToolTimeoutMillis: mcp.maxToolTimeoutMillis,
      forwardAuthorization: mcp.forwardAuthorization,
      requestStates,
      ...(access.identityHeaders && { identityHeaders: access.identityHeaders }),
    },
    credentials,
    upstreams,
    ...(exchanges && { exchanges }),
    limit: new ToolConcurrencyLimit(mcp.toolClient),
    longCalls: tasks.longCalls,
    ...(tasks.serving?.federated && { federatedTasks: tasks.serving.federated }),
    ...(consent && userTokens && { userTokens: consent.callerAuthorizations(userTokens.vault) }),
    logger,
    ...(metrics && { observe: (tool, durationMs, failure) => metrics.toolCall(tool, durationMs, failure) }),
  });
  const features = new FederatedFeatures(mcp.bundles, upstreams, {
    ttlMillis: mcp.catalogue.refreshTtlMillis,
    maxCallMillis: mcp.maxToolTimeoutMillis,
    requestStates,
    bindState: featureStateBinding,
    now: options.now ?? Date.now,
    logger,
  });
  const skills = buildSkills(mcp, logger, options.now ?? Date.now);
  const tracing = GatewayTracing.over(otlp);
  const observers: EraObservers = {
    tracing,
    ...(metrics && {
      onAnswered: (message, era, outcome, context) => {
        if (message.kind !== 'response') metrics.request(message.message.method, era, requestOutcome(outcome), context.receivedAt);
      },
    }),
  };
  const eraAccess = intercept ? { ...access.eras, intercept } : access.eras;
  const eras = buildEras(
    mcp,
    catalogue,
    execution,
    routingHints,
    observers,
    eraAccess,
    features.served ? features : undefined,
    skills.served ? skills : undefined,
    tasks.serving,
  );
  // Curated endpoints (issue 46): the eras again over each one's view of the catalogue, sharing the rest.
  const curated = buildCuratedEndpoints({
    mcp,
    catalogue,
    execution,
    routingHints,
    observers,
    access: eraAccess,
    ...(access.authentication && { authentication: access.authentication }),
    rateLimitsOf: access.rateLimitsOf,
    logger,
  });
  openStreams = () => eras.listeners.size + curated.openStreams();
  const pages =
    consent &&
    userTokens &&
    consent.pages(userTokens.vault, connectElicitationCompletions([eras.listeners, ...curated.listeners], changes));
  tasks.serving?.service.onStatusChange(connectTaskStatusChanges(eras.listeners, changes));
  // search_tools's index is brought up to date as each new tool list is installed, not by a request.
  const stopIndexing = eras.search && catalogue.onToolsListChanged((generation) => eras.search?.reindex(generation));
  const notifications = connectCatalogueChanges({
    catalogue,
    listeners: eras.listeners,
    channel: changes,
    refreshTtlMillis: mcp.catalogue.refreshTtlMillis,
    logger,
  });
  const upstreamChanges = refreshOnUpstreamChanges(upstreams, catalogue, features);
  const federatedChanges = features.served ? connectFederatedResourceChanges(features, eras.listeners, logger) : undefined;
  const skillChanges = skills.served ? connectSkillChanges(skills, eras.listeners, mcp.catalogue.refreshTtlMillis, logger) : undefined;

  let draining = false;
  const app = createMcpHttpApp({
    endpointPath: mcp.endpointPath,
    maxBodyBytes: mcp.maxBodyBytes,
    requestDeadlineMillis: mcp.requestDeadlineMillis,
    originPolicy: { allowedHosts: mcp.allowedHosts, allowedOrigins: mcp.allowedOrigins },
    payloadLogging: mcp.payloadLoggingEnabled,
    keepAuthorization: mcp.forwardAuthorization,
    logger,
    dispatch: audit ? audit.audited(eras.dispatch) : eras.dispatch,
    dispatchGet: eras.dispatchGet,
    batches: { accepts: eras.acceptsBatch, maxMembers: mcp.maxBatchMembers, maxResponseBytes: mcp.maxBatchResponseBytes },
    ...(eras.onAnswered && { onAnswered: eras.onAnswered }),
    streamKeepAliveMillis: mcp.notifications.keepAliveMillis,
    isDraining: () => draining,
    ...access.front,
    ...(audit && { onUnauthenticated: (refusal, context) => audit.refusedAtTheDoor(refusal, context) }),
    endpoints: audit ? curated.apps.map((endpoint) => ({ ...endpoint, dispatch: audit.audited(endpoint.dispatch) })) : curated.apps,
    ...(pages && { pages }),
  });
  const { port, host, headersTimeoutMillis, requestTimeoutMillis, keepAliveTimeoutMillis, maxConnections } = config.server;
  const server = await listenHttp(app, {
    port,
    host,
    headersTimeoutMillis,
    requestTimeoutMillis,
    keepAliveTimeoutMillis,
    ...(maxConnections > 0 && { maxConnections }),
  });
  const management = await startManagementServer(config.server.managementPort, config.server.managementHost, {
    ready: () => !draining && catalogue.isReady(), // DOWN from the signal on, so the balancer stops first
    toolBundles: () => ({
      ...pins.definitions.describeBundles(access.describeBundles(catalogue.status(), catalogue.current())),
      endpoints: curated.describe(),
    }),
    catalogueEtag: () => catalogue.current()?.etag,
    refreshBundle: (bundle) => catalogue.requestRefresh(bundle),
    handlers: [
      approvalEndpoint({ definitions: pins.definitions, token: pins.approvalToken, catalogue }),
      ...(userTokens ? [userTokens.revoke] : []),
    ],
    ...(metrics && { metrics }),
  });
  // Startup preload, routes and manifests first, then the routing hints they point to. Failures are
  // logged and never stop the process (SPEC G16).
  void catalogue.refreshAll().then(() => routingHints.refresh());
  if (features.served) features.start();
  if (skills.served) skills.start();

  return {
    mcpUrl: `${server.url}${mcp.endpointPath}`,
    managementUrl: management.url,
    logger,
    onToolsListChanged: (listener) => catalogue.onToolsListChanged(listener),
    stop: async () => {
      draining = true;
      logger.info('gateway_draining', {
        inFlight: server.inFlight(),
        drainMillis: mcp.shutdownDrainMillis,
        notificationStreams: eras.listeners.size,
      });
      // Notification streams never end on their own: each is ended now (a listen with its result).
      notifications.stop();
      upstreamChanges.stop();
      skillChanges?.stop();
      federatedChanges?.stop();
      stopIndexing?.();
      eras.listeners.closeAll();
      curated.stop();
      // Set before the server's own drain timer of the same length, so it fires first and counts what the
      // server is about to cut. Cutting a request fires its context's hang-up signal, which cancels its tool call.
      const cut = setTimeout(() => {
        if (server.inFlight() > 0) logger.warn('gateway_drain_cut', { aborted: server.inFlight() });
      }, mcp.shutdownDrainMillis);
      await server.close(mcp.shutdownDrainMillis);
      clearTimeout(cut);
      await Promise.all([
        toolClient.close(),
        upstreams.close(),
        management.close(),
        cache?.close(),
        changes?.close(),
        tracing?.shutdown(),
        access.close(),
        exchanges?.close(),
        audit?.close(),
        pins.close(),
        userTokens?.close(),
      ]);
      tasks.serving?.service.close();
      logger.info('gateway_stopped', {});
    },
  };
}

function requestOutcome(outcome: DispatchOutcome | undefined): RequestOutcome {
  if (outcome === undefined) return 'accepted';
  if ('open' in outcome) return 'stream';
  return outcome.isError ? 'error' : 'result';
}
