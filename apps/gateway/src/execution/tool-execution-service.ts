import type { ToolCatalogue, ToolDefinition } from '@toolmesh/registry';
import type { Logger, RequestContext } from '@toolmesh/transport-http/server';

import { AuditDecisions } from '../audit/audit-event';
import { auditOf } from '../audit/audit-record';
import type { BundleTokenExchanges } from '../auth/bundle-token-exchanges';
import { callTimeoutMillis } from '../call/call-timeout';
import type { RequestStateSeal } from '../call/request-state-seal';
import type { ServiceCredentials } from '../call/service-credentials';
import type { ToolCallOutcome } from '../call/tool-call-outcome';
import type { CallerIdentity } from '../tool-client/caller-identity';
import type { ToolClient } from '../tool-client/tool-client';
import type { FederatedTasks } from '../upstreams/federated-tasks';
import type { McpUpstreams } from '../upstreams/mcp-upstreams';
import { CallSlots } from './call-slots';
import { McpServerInvoker } from './invokers/mcp-server-invoker';
import { OpenApiInvoker } from './invokers/openapi-invoker';
import { OutboundHeaders, type OutboundHeaderSettings } from './invokers/outbound-headers';
import { ServiceInvoker } from './invokers/service-invoker';
import { stateBinding } from './request-state-binding';
import { toolResult } from './result-mapper';
import type { LongCalls } from './tasks/long-calls';
import { type CallExtras, notCalled, type ToolCallObserver } from './tool-call';
import type { ToolConcurrencyLimit } from './tool-concurrency-limit';
import type { UserAuthorizations } from './user-authorizations';

export interface ExecutionSettings extends OutboundHeaderSettings {
  /** Cap over any manifest timeout (SPEC G12). */
  readonly maxToolTimeoutMillis: number;
  /** Seals the MRTR state tool services hand clients, and opens it when it comes back (SPEC N7). */
  readonly requestStates: RequestStateSeal;
}

export interface ToolExecutionOptions {
  readonly catalogue: ToolCatalogue;
  readonly client: ToolClient;
  /** This gateway's own address, sent to tool services with every call. */
  readonly caller: CallerIdentity;
  readonly settings: ExecutionSettings;
  /** The secrets OpenAPI tools' security schemes need; without it such a tool is not called. */
  readonly credentials?: ServiceCredentials;
  /** The MCP servers of `mcpServer` bundles, which their tools' calls are forwarded to (issue 28). */
  readonly upstreams?: McpUpstreams;
  /** The bundles whose tool services get the caller's token exchanged for theirs (`tokenExchange`, issue 26). */
  readonly exchanges?: BundleTokenExchanges;
  /** The bundles whose tool services get their user's own token, got by consent (`userAuthorization`, issue 48). */
  readonly userTokens?: UserAuthorizations;
  readonly limit: ToolConcurrencyLimit;
  readonly logger: Logger;
  readonly observe?: ToolCallObserver;
  /** What becomes of a long tool's `202 Accepted` (issue 47). */
  readonly longCalls?: LongCalls;
  /** MCP servers' tasks (issue 47): a call of a server's tool whose caller asked for a task is relayed as one. */
  readonly federatedTasks?: FederatedTasks;
}

/** Why no tool was found for a name: the gateway's own failures, which each era puts on the wire its own way. */
export type ToolLookupFailure = 'unknown_tool' | 'registry_unavailable';

/**
 * Executes one `tools/call`: find the tool by exact name, then open a retry's sealed state, validate the
 * arguments and cut the deadline, and hand the call to the invoker of the tool's source kind
 * (`invokers/`). The tool is looked up once per call: the caller gets it (`toolInMemory`, else `lookUp`)
 * and hands it to the era's checks, to `call` and to the era's shaping of the result.
 */
export class ToolExecutionService {
  private readonly service: ServiceInvoker;
  private readonly openapi: OpenApiInvoker;
  private readonly mcp: McpServerInvoker;

  constructor(private readonly options: ToolExecutionOptions) {
    const { settings, logger, observe } = options;
    const slots = new CallSlots(options.limit, logger);
    const { requestStates, maxToolTimeoutMillis } = settings;
    const http = {
      client: options.client,
      catalogue: options.catalogue,
      headers: new OutboundHeaders(options.caller, settings),
      slots,
      requestStates,
      maxToolTimeoutMillis,
      exchanges: options.exchanges,
      userTokens: options.userTokens,
      logger,
      observe,
      longCalls: options.longCalls,
    };
    this.service = new ServiceInvoker(http);
    this.openapi = new OpenApiInvoker(http, options.credentials);
    this.mcp = new McpServerInvoker({
      upstreams: options.upstreams,
      slots,
      requestStates,
      logger,
      observe,
      federatedTasks: options.federatedTasks,
    });
  }

  /**
   * The same service finding tools in another catalogue (a curated endpoint's view of this one, issue 46):
   * its invokers are new, what they share (clients, slots' limits, upstreams, credentials) is this one's.
   */
  over(catalogue: ToolCatalogue): ToolExecutionService {
    return new ToolExecutionService({ ...this.options, catalogue });
  }

  /** The tool named, from the catalogue in memory: the hot path, with no promise. */
  toolInMemory(name: string): ToolDefinition | undefined {
    return this.options.catalogue.current()?.tools.get(name);
  }

  /** For a name `toolInMemory` did not find: the catalogue loaded once (cold start), else refreshed once. */
  async lookUp(name: string, context: RequestContext): Promise<ToolDefinition | ToolLookupFailure> {
    const { catalogue } = this.options;
    const generation = catalogue.current() ?? (await catalogue.ensureLoaded());
    if (!generation) return 'registry_unavailable';
    const tool = generation.tools.get(name);
    if (tool) return tool;
    // Maybe the snapshot is stale: look again after one (rate-limited) refresh before saying "unknown".
    return (await catalogue.refreshForUnknownTool(name, context))?.tools.get(name) ?? 'unknown_tool';
  }

  /**
   * Not async: its checks answer at once, and the invoker's promise is returned as it is. An async
   * function around it costs a promise of its own and turns of the microtask queue on every call
   * (docs/adr/0005-gateway-hot-path.md, fourteenth round).
   */
  call(tool: ToolDefinition, args: Record<string, unknown>, context: RequestContext, extras: CallExtras = {}): Promise<ToolCallOutcome> {
    const { name } = tool;
    const { logger, settings } = this.options;
    if (extras.answers?.requestState !== undefined) {
      const opened = settings.requestStates.open(stateBinding(name, args, context), extras.answers.requestState);
      if ('refused' in opened) {
        logger.warn('request_state_refused', { tool: name, reason: opened.refused }, context);
        return Promise.resolve({ kind: 'invalid_request_state', reason: opened.refused });
      }
      extras = { ...extras, answers: { ...extras.answers, requestState: opened.state } };
    }
    // Compiled when the manifest loaded (SPEC N5): patterns run in linear time, nothing compiles here.
    const check = tool.inputValidator.check(args, 'arguments');
    auditOf(context)?.decide(check.ok ? AuditDecisions.validArguments : AuditDecisions.invalidArguments);
    if (!check.ok)
      return Promise.resolve({
        kind: 'result',
        result: toolResult(`Invalid arguments for tool ${name}: ${check.problems.join('; ')}`, true, 0),
      });
    const timeoutMillis = callTimeoutMillis(settings.maxToolTimeoutMillis, context, tool.timeoutMillis);
    if (timeoutMillis <= 0) return Promise.resolve(notCalled(name, "the request's deadline has passed"));
    return this.invoke(tool, args, context, extras, timeoutMillis);
  }

  /** The invoker selection: the one place that tells the source kinds apart. */
  private invoke(
    tool: ToolDefinition,
    args: Record<string, unknown>,
    context: RequestContext,
    extras: CallExtras,
    timeoutMillis: number,
  ): Promise<ToolCallOutcome> {
    const { target } = tool;
    switch (target.kind) {
      case 'service':
        return this.service.invoke(tool, target, args, context, extras, timeoutMillis);
      case 'openapi':
        return this.openapi.invoke(tool, target, args, context, extras, timeoutMillis);
      case 'mcp':
        return this.mcp.invoke(tool, target, args, context, extras, timeoutMillis);
    }
  }
}
