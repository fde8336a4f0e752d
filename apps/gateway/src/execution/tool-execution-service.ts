import type { ToolCatalogue } from '@toolmesh/registry';
import { CallerHeader, remainingMillis, type Logger, type RequestContext } from '@toolmesh/transport-http/server';
import type { CallerIdentity } from '../tool-client/caller-identity';
import type { ToolClient, ToolHttpResponse } from '../tool-client/tool-client';
import { mapToolReply, toolResult, type GatewayCallToolResult } from './result-mapper';
import { inputAnswerHeaders, type InputAnswers, type InputRequired } from './input-required';
import type { RequestStateSeal } from './request-state-seal';
import type { TraceHeaders } from './trace-context';

/**
 * What a call carries besides its arguments: the caller's trace context, its `Idempotency-Key`, and from a
 * 2026 client the input capabilities it declared and its answers to an MRTR round.
 */
export interface CallExtras {
  readonly trace?: TraceHeaders;
  readonly idempotencyKey?: string;
  readonly inputCapabilities?: string;
  readonly answers?: InputAnswers;
}
import type { ToolConcurrencyLimit } from './tool-concurrency-limit';

export interface ExecutionSettings {
  /** Cap over any manifest timeout (SPEC G12). */
  readonly maxToolTimeoutMillis: number;
  /** Forward the caller's Authorization header to tool services (SPEC G11). */
  readonly forwardAuthorization: boolean;
  /** Seals the MRTR state tool services hand clients, and opens it when it comes back (SPEC N7). */
  readonly requestStates: RequestStateSeal;
}

/** Told of every POST to a tool service: for the tool-call metrics (SPEC G23). `failure`: its kind, when not 2xx. */
export type ToolCallObserver = (tool: string, durationMs: number, failure: string | undefined) => void;

export type ToolCallOutcome =
  | { kind: 'result'; result: GatewayCallToolResult }
  | { kind: 'input_required'; input: InputRequired }
  | { kind: 'unknown_tool' }
  | { kind: 'registry_unavailable' }
  | { kind: 'invalid_request_state' };

/**
 * Executes one `tools/call`: resolve the tool by exact name, validate the arguments, POST them once to the
 * tool's endpoint with the correlation headers and what is left of the deadline, and map the reply.
 */
export class ToolExecutionService {
  constructor(
    private readonly catalogue: ToolCatalogue,
    private readonly client: ToolClient,
    private readonly caller: CallerIdentity,
    private readonly settings: ExecutionSettings,
    private readonly limit: ToolConcurrencyLimit,
    private readonly logger: Logger,
    private readonly observe?: ToolCallObserver,
  ) {}

  async call(name: string, args: Record<string, unknown>, context: RequestContext, extras: CallExtras = {}): Promise<ToolCallOutcome> {
    let generation = this.catalogue.current() ?? (await this.catalogue.ensureLoaded());
    if (!generation) return { kind: 'registry_unavailable' };
    let tool = generation.tools.get(name);
    if (!tool) {
      // Maybe the snapshot is stale: look again after one (rate-limited) refresh before saying "unknown".
      generation = (await this.catalogue.refreshForUnknownTool(name, context)) ?? generation;
      tool = generation.tools.get(name);
      if (!tool) return { kind: 'unknown_tool' };
    }
    if (extras.answers?.requestState !== undefined) {
      const state = this.settings.requestStates.open(name, extras.answers.requestState);
      if (state === undefined) {
        this.logger.warn('request_state_refused', { tool: name }, context);
        return { kind: 'invalid_request_state' };
      }
      extras = { ...extras, answers: { ...extras.answers, requestState: state } };
    }

    const started = performance.now();
    // Compiled when the manifest loaded (SPEC N5): patterns run in linear time, nothing compiles here.
    const check = tool.inputValidator.check(args, 'arguments');
    if (!check.ok) {
      return { kind: 'result', result: toolResult(`Invalid arguments for tool ${name}: ${check.problems.join('; ')}`, true, 0) };
    }
    const timeoutMillis = Math.min(tool.timeoutMillis ?? Infinity, this.settings.maxToolTimeoutMillis, remainingMillis(context));
    if (timeoutMillis <= 0) {
      return { kind: 'result', result: toolResult(`Tool ${name} was not called: the request's deadline has passed.`, true, 0) };
    }

    if (!this.limit.tryAcquire(name)) {
      this.logger.warn('tool_call_refused_at_limit', { tool: name, limit: this.limit.maxPerTool }, context);
      const text = `Tool ${name} was not called: it already has ${this.limit.maxPerTool} calls in flight, its limit; retry later.`;
      return { kind: 'result', result: toolResult(text, true, 0) };
    }
    let reply: ToolHttpResponse;
    try {
      reply = await this.client.post({
        endpoint: tool.endpoint,
        body: JSON.stringify(args),
        headers: this.outboundHeaders(context, extras),
        timeoutMillis: Math.ceil(timeoutMillis),
        hangUp: context.hangUp,
      });
    } finally {
      this.limit.release(name);
    }
    const durationMs = Math.round(performance.now() - started);
    if (reply.kind === 'reply' && (reply.status === 404 || reply.status === 410)) this.catalogue.reportStaleTool(tool, context);
    const status = reply.kind === 'reply' ? reply.status : reply.reason;
    this.observe?.(name, durationMs, reply.kind === 'failure' ? reply.reason : reply.status >= 300 ? `http_${Math.floor(reply.status / 100)}xx` : undefined);
    // A cancelled call is logged once, as such; its result goes nowhere, since nobody is left to read it.
    this.logger.info(status === 'cancelled' ? 'tool_call_cancelled' : 'tool_call_completed', { tool: name, status, durationMs }, context);
    const mapped = mapToolReply(name, reply, durationMs, tool.output);
    return 'inputRequired' in mapped ? { kind: 'input_required', input: this.sealState(name, mapped.inputRequired) } : { kind: 'result', result: mapped };
  }

  /** The client gets the service's state sealed; its retry brings it back to be opened (above). */
  private sealState(tool: string, input: InputRequired): InputRequired {
    return input.requestState === undefined ? input : { ...input, requestState: this.settings.requestStates.seal(tool, input.requestState) };
  }

  private outboundHeaders(context: RequestContext, { trace, idempotencyKey, inputCapabilities, answers }: CallExtras): Record<string, string> {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      [CallerHeader.Guid]: context.guid,
      [CallerHeader.RequestId]: context.requestId,
      'x-caller-ip': this.caller.ip,
      'x-caller-host': this.caller.host,
    };
    if (context.sessionId !== undefined) headers[CallerHeader.SessionId] = context.sessionId;
    if (context.employeeNo !== undefined) headers[CallerHeader.EmployeeNo] = context.employeeNo;
    if (context.virtualEmployeeNo !== undefined) headers[CallerHeader.VirtualEmployeeNo] = context.virtualEmployeeNo;
    if (this.settings.forwardAuthorization && context.authorization !== undefined) headers.authorization = context.authorization;
    if (trace?.traceparent !== undefined) Object.assign(headers, trace);
    if (idempotencyKey !== undefined) headers['idempotency-key'] = idempotencyKey;
    if (inputCapabilities !== undefined) headers['mcp-client-capabilities'] = inputCapabilities;
    if (answers !== undefined) Object.assign(headers, inputAnswerHeaders(answers));
    return headers;
  }
}
