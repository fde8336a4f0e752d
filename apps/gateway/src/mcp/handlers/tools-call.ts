import {
  internalError,
  invalidParams,
  invalidRequest,
  jsonRpcError,
  JsonRpcErrorCode,
  McpMetaKey,
  missingRequiredClientCapability,
  type RequestId,
} from '@toolmesh/protocol';
import type { ToolDefinition } from '@toolmesh/registry';
import type { JsonOutcome, RequestContext } from '@toolmesh/transport-http/server';

import { auditOf } from '../../audit/audit-record';
import { declaredInputCapabilities, inputAnswersProblem, inputCapabilitiesDeclared, readInputAnswers } from '../../call/input-required';
import type { StateRefusal } from '../../call/request-state-seal';
import type { ForwardedToolResult, GatewayCallToolResult, ToolCallOutcome, UpstreamRefusal } from '../../call/tool-call-outcome';
import { traceHeaders } from '../../call/trace-context';
import type { AdmissionRefusal, CallAdmission } from '../../execution/call-admission';
import { type CallIdentity, idempotencyKey } from '../../execution/idempotency-key';
import type { ToolExecutionService } from '../../execution/tool-execution-service';
import type { CallInterceptors } from '../../interceptors/call-interceptors';
import type { CallTrace, GatewayTracing } from '../../tracing/tracing';
import { callerCapabilities, mayUse } from '../caller-capabilities';
import { type ConsentAnswer, consentNotAsked } from '../consent-answers';
import type { EraErrors } from '../era-errors';
import { errorOutcome } from '../outcomes';
import type { TasksCallEra } from '../tasks/task-calls';
import type { CallStream } from './call-stream';
import type { HandlerResult, RequestHandler } from './method-handler';

/** An era's own refusal of a call before it runs, already answered (the 2026 era's `Mcp-Param-*` headers). */
export type CallRefusal = (
  tool: ToolDefinition,
  args: Record<string, unknown>,
  context: RequestContext,
  id: RequestId,
) => JsonOutcome | undefined;

/**
 * What an era changes in a tool's result before it goes out (tool-result-shaping.ts: output budgets, the 2025
 * wrapping): a tool service's result, or an MCP server's forwarded one for an MCP server's tool.
 */
export type ToolResultShaper = (tool: ToolDefinition, result: GatewayCallToolResult | ForwardedToolResult) => object;

/** What an era adds to the `tools/call` both share. */
export interface ToolsCallEra {
  readonly errors: EraErrors;
  readonly identify: CallIdentity;
  readonly refuse?: CallRefusal;
  readonly shapeResult?: ToolResultShaper;
  /**
   * The answer of an MCP server's tool as it may become an event stream (call-stream.ts): the call's
   * progress, when the caller asked for it, and in the 2025 era the server's requests during the call.
   */
  readonly streamToCaller?: (id: RequestId, params: Record<string, unknown>, context: RequestContext) => CallStream | undefined;
  /** A long-running tool's call as a task (issue 47), when the gateway serves tasks. */
  readonly tasks?: TasksCallEra;
  /** How the era asks for its user's consent a call of a tool that acts as the user needs first (issue 48). */
  readonly consent?: ConsentAnswer;
}

/**
 * `tools/call` (SPEC G9, G13): params and trace context read here, the tool looked up once and handed to
 * the era's check, the execution service and the era's shaping; the era's `identify` says what makes a
 * retry the same call (its `Idempotency-Key`, SPEC N7). The era's parts are applied in place
 * rather than by wrapping handlers: each async layer costs a promise and a turn of the microtask queue on
 * every call (docs/adr/0005-gateway-hot-path.md).
 */
export function toolsCallHandler(
  execution: ToolExecutionService,
  era: ToolsCallEra,
  tracing?: GatewayTracing,
  admit?: CallAdmission,
  intercept?: CallInterceptors,
): RequestHandler {
  return async (params, context, id) => {
    const { name, arguments: args = {} } = params;
    if (typeof name !== 'string' || name.length === 0) return invalidParams(id, '"name" must be a non-empty string');
    if (typeof args !== 'object' || args === null || Array.isArray(args))
      return invalidParams(id, '"arguments" must be an object when present');

    const found = execution.toolInMemory(name) ?? (await execution.lookUp(name, context));
    if (typeof found === 'string') return era.errors.lookupFailed(id, found, name);
    // A tool the caller's declared capabilities do not show it is unknown to it (issue 44); asked only of such a tool.
    const { target } = found;
    if (target.kind === 'mcp' && target.requiredCapabilities !== undefined && !mayUse(found, callerCapabilities(params, context)))
      return era.errors.lookupFailed(id, 'unknown_tool', name);
    if (admit) {
      // Awaited only when the check could not answer at once (a rate limit): a promise per call costs (ADR 0005).
      const admission = admit(found, context);
      const refusal = admission instanceof Promise ? await admission : admission;
      if (refusal) return { answered: refusedCall(id, name, refusal, era.errors) };
    }
    const refused = era.refuse?.(found, args as Record<string, unknown>, context, id);
    if (refused) return { answered: refused };
    // An MCP server's tool may become its server's task whatever its listing says: a 2026-07-28 server decides per call (issue 47).
    const taskWish = found.task !== undefined || found.target.kind === 'mcp' ? era.tasks?.wish(found, params, context, id) : undefined;
    if (taskWish && 'refused' in taskWish) return taskWish.refused;
    const answersProblem = inputAnswersProblem(params);
    if (answersProblem) return invalidParams(id, answersProblem);

    const caller = traceHeaders(params, context);
    const traced = tracing?.startCall(name, caller);
    const declared = declaredCapabilitiesOf(params);
    // Only an MCP server's tool can ask its caller anything, or tell its progress, on the way (issues 28, 44).
    const forwarded = found.target.kind === 'mcp';
    const stream = forwarded ? era.streamToCaller?.(id, params, context) : undefined;
    const extras = {
      trace: traced?.outbound ?? caller,
      // A tool service's header (SPEC N7); an MCP server's call carries none, so none is hashed for it.
      idempotencyKey: forwarded ? undefined : idempotencyKey(era.identify(name, params, context, id)),
      inputCapabilities: declared && declaredInputCapabilities(declared),
      callerCapabilities: declared && inputCapabilitiesDeclared(declared),
      answers: readInputAnswers(params),
      callerRelay: stream?.relay,
      callerStream: stream,
      task: taskWish,
    };
    // Interceptors (issue 46) only for a tool some interceptor selects: other calls meet no chain and no promise of one.
    const chain = intercept?.chainFor(found, context.endpoint);
    const running = chain
      ? chain.around({ tool: found, args: args as Record<string, unknown>, context }, (checked) =>
          execution.call(found, checked, context, extras),
        )
      : execution.call(found, args as Record<string, unknown>, context, extras);
    if (stream === undefined) return answer(await running, found, params, id, era, traced, context);
    const answered = running.then((outcome) => answer(outcome, found, params, id, era, traced, context));
    // The answer is JSON unless something reaches the caller first: then an event stream carries both.
    return (await stream.firstOf(answered)) ?? { answered: stream.streamed(answered) };
  };
}

/** Why a retry's `requestState` was refused, as its -32602 says. */
const STATE_REFUSALS: Readonly<Record<StateRefusal, string>> = {
  not_sealed_here: 'was not issued by this gateway for this tool, or was altered',
  expired: 'has expired (mcp.requestStateTtlSeconds)',
  other_caller: 'was issued to another caller',
  other_request: 'was issued for other arguments',
};

/** A call's outcome as its era answers it. */
function answer(
  outcome: ToolCallOutcome,
  found: ToolDefinition,
  params: Record<string, unknown>,
  id: RequestId,
  era: ToolsCallEra,
  traced: CallTrace | undefined,
  context: RequestContext,
): HandlerResult {
  traced?.end(outcome.kind === 'result' ? outcome.result.isError === true : true);
  auditOf(context)?.ended(outcome, traced?.spanContext);
  switch (outcome.kind) {
    case 'result':
      return { result: era.shapeResult ? era.shapeResult(found, outcome.result) : outcome.result };
    case 'input_required':
      return { inputRequired: outcome.input };
    case 'refused_upstream':
      return refusedUpstream(id, outcome.refusal);
    case 'invalid_request_state':
      return invalidParams(id, `"requestState" ${STATE_REFUSALS[outcome.reason]}; call the tool again without it`);
    case 'task':
      return era.tasks?.created(id, outcome.task) ?? internalError(id);
    case 'consent_required': {
      const asked = era.consent?.(id, outcome.consent, params, context);
      if (asked) return asked;
      const result = consentNotAsked(found.name, outcome.consent);
      return { result: era.shapeResult ? era.shapeResult(found, result) : result };
    }
  }
}

/**
 * An MCP server's refusal of what our caller sent, as the same error: -32602 with the server's message, or
 * (only ever for a 2026 caller) -32021 naming what the server needs, with the status the revision gives it.
 */
function refusedUpstream(id: RequestId, refusal: UpstreamRefusal): HandlerResult {
  if ('invalidParams' in refusal) return jsonRpcError(id, JsonRpcErrorCode.InvalidParams, refusal.invalidParams);
  return { answered: errorOutcome(missingRequiredClientCapability(id, refusal.requiredCapabilities), 400) };
}

/** 403 with the challenge that names the scopes to step up to, or 429 with when to retry (SPEC G27). */
export function refusedCall(id: RequestId, tool: string, refusal: AdmissionRefusal, errors: EraErrors): JsonOutcome {
  if (refusal.kind === 'insufficient_scope') {
    const forbidden = invalidRequest(id, `forbidden: insufficient_scope: tool ${tool} needs the scopes "${refusal.scopes.join(' ')}"`);
    return { ...errorOutcome(forbidden, 403), headers: { 'WWW-Authenticate': refusal.challenge } };
  }
  return { ...errorOutcome(errors.rateLimited(id, refusal), 429), headers: { 'Retry-After': String(refusal.retryAfterSeconds) } };
}

/** A 2026 request's declared capabilities (its `_meta`); a 2025 request has none to tell. */
export function declaredCapabilitiesOf(params: Record<string, unknown>): Record<string, unknown> | undefined {
  const declared = (params._meta as Record<string, unknown> | undefined)?.[McpMetaKey.ClientCapabilities];
  return typeof declared === 'object' && declared !== null ? (declared as Record<string, unknown>) : undefined;
}
