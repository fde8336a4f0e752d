import { errorMessage } from '@toolmesh/protocol';
import type { ToolCatalogue, ToolDefinition } from '@toolmesh/registry';
import { CallerHeader, type Logger, remainingMillis, type RequestContext } from '@toolmesh/transport-http/server';

import type { BundleTokenExchanges } from '../auth/bundle-token-exchanges';
import { inputAnswerHeaders, type InputAnswers, type InputRequired } from '../call/input-required';
import type { RequestStateSeal } from '../call/request-state-seal';
import type { ServiceCredentials } from '../call/service-credentials';
import type { TraceHeaders } from '../call/trace-context';
import type { CallerIdentity } from '../tool-client/caller-identity';
import type { ToolClient, ToolHttpRequest, ToolHttpResponse } from '../tool-client/tool-client';
import { type ForwardedCall, type ForwardedCallRequest, type ForwardedToolResult, forwardToolCall } from '../upstreams/forward-tool-call';
import { forwardedStateText, readForwardedState } from '../upstreams/forwarded-state';
import type { McpUpstreams } from '../upstreams/mcp-upstreams';
import type { CallerRelay } from '../upstreams/server-request-relay';
import type { UpstreamRefusal } from '../upstreams/upstream-refusal';
import { boundRequest } from './bound-request';
import { type GatewayCallToolResult, mapToolReply, toolResult } from './result-mapper';
import type { ToolAdmission, ToolConcurrencyLimit } from './tool-concurrency-limit';

/**
 * What a call carries besides its arguments: the caller's trace context, its `Idempotency-Key`, and from a
 * 2026 client the input capabilities it declared and its answers to an MRTR round.
 */
export interface CallExtras {
  readonly trace?: TraceHeaders;
  readonly idempotencyKey?: string;
  readonly inputCapabilities?: string;
  /** The same declaration as an object of the input capabilities only, as an MCP server is told it. */
  readonly callerCapabilities?: Readonly<Record<string, unknown>>;
  readonly answers?: InputAnswers;
  /** A 2025 caller that can be asked on the call's event stream, when it is an MCP server's tool. */
  readonly callerRelay?: CallerRelay;
}

export interface ExecutionSettings {
  /** Cap over any manifest timeout (SPEC G12). */
  readonly maxToolTimeoutMillis: number;
  /** Forward the caller's Authorization header to tool services (SPEC G11). */
  readonly forwardAuthorization: boolean;
  /** Seals the MRTR state tool services hand clients, and opens it when it comes back (SPEC N7). */
  readonly requestStates: RequestStateSeal;
  /** Headers each from one claim of the caller's verified token (`auth.identityHeaders`, SPEC G27): header name, claim. */
  readonly identityHeaders?: ReadonlyArray<readonly [string, string]>;
}

/** A retry's answers as forwarding reads them: the client's responses, and what the state sealed here holds. */
function forwardedAnswers({ answers }: CallExtras): ForwardedCallRequest['answers'] | 'invalid' {
  if (answers === undefined) return undefined;
  const state = answers.requestState === undefined ? undefined : readForwardedState(answers.requestState);
  if (answers.requestState !== undefined && state === undefined) return 'invalid';
  return {
    ...(answers.inputResponses !== undefined && { inputResponses: answers.inputResponses as Record<string, unknown> }),
    ...(state && { state }),
  };
}

/** A result the gateway gives itself, the tool not called: an `isError` result saying why. */
function resultOf(text: string): Promise<ToolCallOutcome> {
  return Promise.resolve({ kind: 'result', result: toolResult(text, true, 0) });
}

/** A claim goes out as a header only when it is printable ASCII of a sane length: anything else is left out, never sent mangled. */
const HEADER_SAFE_CLAIM = /^[\x20-\x7E]{1,256}$/;

/** Told of every POST to a tool service: for the tool-call metrics (SPEC G23). `failure`: its kind, when not 2xx. */
export type ToolCallObserver = (tool: string, durationMs: number, failure: string | undefined) => void;

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
  readonly limit: ToolConcurrencyLimit;
  readonly logger: Logger;
  readonly observe?: ToolCallObserver;
}

/** Why no tool was found for a name: the gateway's own failures, which each era puts on the wire its own way. */
export type ToolLookupFailure = 'unknown_tool' | 'registry_unavailable';

export type ToolCallOutcome =
  | { kind: 'result'; result: GatewayCallToolResult }
  | { kind: 'forwarded'; result: ForwardedToolResult }
  | { kind: 'input_required'; input: InputRequired }
  | { kind: 'refused_upstream'; refusal: UpstreamRefusal }
  | { kind: 'invalid_request_state' };

/**
 * Executes one `tools/call`: find the tool by exact name, then validate the arguments, POST them once to
 * the tool's endpoint with the correlation headers and what is left of the deadline, and map the reply.
 * The tool is looked up once per call: the caller gets it (`toolInMemory`, else `lookUp`) and hands it
 * to the era's checks, to `call` and to the era's shaping of the result.
 */
export class ToolExecutionService {
  private readonly origins = new WeakMap<URL, string>();

  constructor(private readonly options: ToolExecutionOptions) {}

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
   * Not async: its checks answer at once, and a forwarded call's promise is returned as it is. An async
   * function around it costs a promise of its own and turns of the microtask queue on every call
   * (docs/adr/0005-gateway-hot-path.md, fourteenth round).
   */
  call(tool: ToolDefinition, args: Record<string, unknown>, context: RequestContext, extras: CallExtras = {}): Promise<ToolCallOutcome> {
    const { name } = tool;
    const { logger, settings } = this.options;
    if (extras.answers?.requestState !== undefined) {
      const state = settings.requestStates.open(name, extras.answers.requestState);
      if (state === undefined) {
        logger.warn('request_state_refused', { tool: name }, context);
        return Promise.resolve({ kind: 'invalid_request_state' });
      }
      extras = { ...extras, answers: { ...extras.answers, requestState: state } };
    }
    const started = performance.now();
    // Compiled when the manifest loaded (SPEC N5): patterns run in linear time, nothing compiles here.
    const check = tool.inputValidator.check(args, 'arguments');
    if (!check.ok) return resultOf(`Invalid arguments for tool ${name}: ${check.problems.join('; ')}`);
    const timeoutMillis = this.timeoutOf(tool, context);
    if (timeoutMillis <= 0) return resultOf(`Tool ${name} was not called: the request's deadline has passed.`);
    if (tool.upstreamTool !== undefined) return this.forward(tool, tool.upstreamTool, args, context, extras, timeoutMillis);
    return this.post(tool, args, context, extras, timeoutMillis, started);
  }

  /** A tool service's call: one POST of the arguments (with the caller's token exchanged first, where configured). */
  private async post(
    tool: ToolDefinition,
    args: Record<string, unknown>,
    context: RequestContext,
    extras: CallExtras,
    timeoutMillis: number,
    started: number,
  ): Promise<ToolCallOutcome> {
    const { name } = tool;
    const { limit, logger } = this.options;
    const exchange = this.options.exchanges?.exchangeOf(tool.routeToken);
    let authorization: string | undefined;
    if (exchange !== undefined) {
      try {
        authorization = await exchange.authorization(context.caller, timeoutMillis);
      } catch (error) {
        logger.warn('token_exchange_failed', { tool: name, code: (error as { code?: string }).code ?? 'failed' }, context);
        return { kind: 'result', result: toolResult(`Tool ${name} was not called: ${errorMessage(error)}.`, true, 0) };
      }
      timeoutMillis = this.timeoutOf(tool, context);
    }
    const request = this.request(tool, args, context, extras, timeoutMillis, authorization);
    if ('problem' in request) return { kind: 'result', result: toolResult(`Tool ${name} was not called: ${request.problem}.`, true, 0) };
    const origin = this.originOf(tool.endpoint);
    const admission = limit.tryAcquire(name, origin);
    if (admission !== 'admitted') return { kind: 'result', result: this.refusedAtLimit(name, admission, context) };
    let reply: ToolHttpResponse;
    try {
      reply = await this.options.client.post(request);
    } finally {
      limit.release(name, origin);
    }
    const durationMs = Math.round(performance.now() - started);
    // A manifest tool's endpoint answering 404 or 410 is gone; an OpenAPI operation's 404 is about the resource asked for.
    if (tool.http === undefined && reply.kind === 'reply' && (reply.status === 404 || reply.status === 410))
      this.options.catalogue.reportStaleTool(tool, context);
    const status = reply.kind === 'reply' ? reply.status : reply.reason;
    this.options.observe?.(
      name,
      durationMs,
      reply.kind === 'failure' ? reply.reason : reply.status >= 300 ? `http_${Math.floor(reply.status / 100)}xx` : undefined,
    );
    // A cancelled call is logged once, as such; its result goes nowhere, since nobody is left to read it.
    logger.info(status === 'cancelled' ? 'tool_call_cancelled' : 'tool_call_completed', { tool: name, status, durationMs }, context);
    const mapped = mapToolReply(name, reply, durationMs, tool.output, tool.http === undefined ? 'envelope' : 'plain');
    return 'inputRequired' in mapped
      ? { kind: 'input_required', input: this.sealState(name, mapped.inputRequired) }
      : { kind: 'result', result: mapped };
  }

  /** What is left of the request's deadline for the tool's call, capped by its timeout and the gateway's; whole ms. */
  private timeoutOf(tool: ToolDefinition, context: RequestContext): number {
    return Math.ceil(Math.min(tool.timeoutMillis ?? Infinity, this.options.settings.maxToolTimeoutMillis, remainingMillis(context)));
  }

  /**
   * A tool of an MCP server bundle (issue 28): its call forwarded as MCP, within the same per-tool and
   * per-server limits. Not async: handlers on the forwarded call's promise (ADR 0005, fourteenth round).
   */
  private forward(
    tool: ToolDefinition,
    upstreamTool: string,
    args: Record<string, unknown>,
    context: RequestContext,
    extras: CallExtras,
    timeoutMillis: number,
  ): Promise<ToolCallOutcome> {
    const { name } = tool;
    const { limit, upstreams } = this.options;
    const connection = upstreams?.connectionNow(tool.routeToken);
    if (upstreams === undefined || connection === undefined)
      return resultOf(`Tool ${name} was not called: its MCP server is not configured.`);
    const answers = forwardedAnswers(extras);
    if (answers === 'invalid') return Promise.resolve({ kind: 'invalid_request_state' });
    const origin = this.originOf(tool.endpoint);
    const admission = limit.tryAcquire(name, origin);
    if (admission !== 'admitted') return Promise.resolve({ kind: 'result', result: this.refusedAtLimit(name, admission, context) });
    const started = performance.now();
    let forwarding: Promise<ForwardedCall>;
    try {
      forwarding = forwardToolCall(
        { connection, held: upstreams.held },
        { tool: name, upstreamTool, args, callerCapabilities: extras.callerCapabilities, answers, callerRelay: extras.callerRelay },
        context,
        extras.trace,
        timeoutMillis,
      );
    } catch (error) {
      forwarding = Promise.reject(error);
    }
    return forwarding.then(
      (forwarded) => {
        limit.release(name, origin);
        return this.forwarded(name, forwarded, context, Math.round(performance.now() - started));
      },
      (error: unknown) => {
        limit.release(name, origin);
        throw error;
      },
    );
  }

  /** A forwarded call's end: observed, logged once, and its outcome as the era answers it. */
  private forwarded(name: string, forwarded: ForwardedCall, context: RequestContext, durationMs: number): ToolCallOutcome {
    const failure = 'input' in forwarded ? undefined : 'refused' in forwarded ? 'jsonrpc_error' : forwarded.failure;
    this.options.observe?.(name, durationMs, failure);
    const status = context.hangUp?.happened
      ? 'cancelled'
      : 'input' in forwarded
        ? 'input_required'
        : (failure ?? ('result' in forwarded && forwarded.result.isError ? 'is_error' : 'ok'));
    this.options.logger.info(
      status === 'cancelled' ? 'tool_call_cancelled' : 'tool_call_completed',
      { tool: name, status, durationMs },
      context,
    );
    if ('refused' in forwarded) return { kind: 'refused_upstream', refusal: forwarded.refused };
    if (!('input' in forwarded)) return { kind: 'forwarded', result: forwarded.result };
    const { input, held } = forwarded;
    const state = held !== undefined ? { held } : input.requestState !== undefined ? { upstream: input.requestState } : undefined;
    return { kind: 'input_required', input: this.sealState(name, { ...input, ...(state && { requestState: forwardedStateText(state) }) }) };
  }

  /**
   * A manifest tool's call is one POST of the arguments to its fixed endpoint; an OpenAPI tool's places them
   * by its binding (bound-request.ts).
   */
  private request(
    tool: ToolDefinition,
    args: Record<string, unknown>,
    context: RequestContext,
    extras: CallExtras,
    timeoutMillis: number,
    authorization: string | undefined,
  ): ToolHttpRequest | { problem: string } {
    const { endpoint, http } = tool;
    const headers = this.outboundHeaders(context, extras, authorization);
    if (http === undefined) return { endpoint, body: JSON.stringify(args), headers, timeoutMillis, hangUp: context.hangUp };
    const bound = boundRequest(http, args, headers, { store: this.options.credentials, routeToken: tool.routeToken });
    if ('problem' in bound) return bound;
    return { endpoint, timeoutMillis, hangUp: context.hangUp, headers, ...bound };
  }

  private refusedAtLimit(name: string, admission: Exclude<ToolAdmission, 'admitted'>, context: RequestContext): GatewayCallToolResult {
    const { limit, logger } = this.options;
    const { maxConcurrentCallsPerTool, connectionsPerOrigin, reservedConnectionsPerOrigin } = limit.limits;
    if (admission === 'tool_at_limit') {
      logger.warn('tool_call_refused_at_limit', { tool: name, limit: maxConcurrentCallsPerTool }, context);
      return toolResult(
        `Tool ${name} was not called: it already has ${maxConcurrentCallsPerTool} calls in flight, its limit; retry later.`,
        true,
        0,
      );
    }
    const shared = connectionsPerOrigin - reservedConnectionsPerOrigin;
    logger.warn('tool_call_refused_at_service_limit', { tool: name, limit: shared }, context);
    return toolResult(
      `Tool ${name} was not called: its tool service already has ${shared} calls in flight and the rest of its connections are kept for its other tools; retry later.`,
      true,
      0,
    );
  }

  /** Each endpoint's origin, read once: a `URL`'s getters build a new string on every read. */
  private originOf(endpoint: URL): string {
    let origin = this.origins.get(endpoint);
    if (origin === undefined) {
      origin = endpoint.origin;
      this.origins.set(endpoint, origin);
    }
    return origin;
  }

  /** The client gets the service's state sealed; its retry brings it back to be opened (`call`). */
  private sealState(tool: string, input: InputRequired): InputRequired {
    return input.requestState === undefined
      ? input
      : { ...input, requestState: this.options.settings.requestStates.seal(tool, input.requestState) };
  }

  private outboundHeaders(
    context: RequestContext,
    { trace, idempotencyKey, inputCapabilities, answers }: CallExtras,
    authorization: string | undefined,
  ): Record<string, string> {
    const { caller, settings } = this.options;
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      [CallerHeader.Guid]: context.guid,
      [CallerHeader.RequestId]: context.requestId,
      'x-caller-ip': caller.ip,
      'x-caller-host': caller.host,
    };
    if (context.sessionId !== undefined) headers[CallerHeader.SessionId] = context.sessionId;
    if (context.employeeNo !== undefined) headers[CallerHeader.EmployeeNo] = context.employeeNo;
    if (context.virtualEmployeeNo !== undefined) headers[CallerHeader.VirtualEmployeeNo] = context.virtualEmployeeNo;
    if (settings.forwardAuthorization && context.authorization !== undefined) headers.authorization = context.authorization;
    if (authorization !== undefined) headers.authorization = authorization;
    if (context.caller !== undefined && settings.identityHeaders !== undefined) {
      for (const [header, claim] of settings.identityHeaders) {
        const value = context.caller.claims[claim];
        const text = typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined;
        if (text !== undefined && HEADER_SAFE_CLAIM.test(text)) headers[header] = text;
      }
    }
    if (trace?.traceparent !== undefined) Object.assign(headers, trace);
    if (idempotencyKey !== undefined) headers['idempotency-key'] = idempotencyKey;
    if (inputCapabilities !== undefined) headers['mcp-client-capabilities'] = inputCapabilities;
    if (answers !== undefined) Object.assign(headers, inputAnswerHeaders(answers));
    return headers;
  }
}
