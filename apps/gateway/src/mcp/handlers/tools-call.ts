import { invalidParams, McpMetaKey, registryUnavailable, toolNotFound } from '@toolmesh/protocol';
import { idempotencyKey, type CallIdentity } from '../../execution/idempotency-key';
import { declaredInputCapabilities, inputAnswersProblem, readInputAnswers } from '../../execution/input-required';
import { traceHeaders } from '../../execution/trace-context';
import type { GatewayTracing } from '../../tracing/tracing';
import type { GatewayCallToolResult } from '../../execution/result-mapper';
import type { ToolExecutionService } from '../../execution/tool-execution-service';
import type { RequestHandler } from './method-handler';

/** What an era changes in a tool's result before it goes out (the 2025 era's `structuredContent` wrapping). */
export type ToolResultShaper = (toolName: string, result: GatewayCallToolResult) => object;

/**
 * `tools/call` (SPEC G9, G13): params and trace context read here, everything else by the execution
 * service. `shapeResult` is applied in place rather than by a wrapping handler: each async layer costs
 * a promise and a turn of the microtask queue on every call (docs/adr/0005-gateway-hot-path.md).
 * `identify` is the era's reading of what makes a retry the same call (its `Idempotency-Key`, SPEC N7).
 */
export function toolsCallHandler(execution: ToolExecutionService, identify: CallIdentity, tracing?: GatewayTracing, shapeResult?: ToolResultShaper): RequestHandler {
  return async (params, context, id) => {
    const { name, arguments: args = {} } = params;
    if (typeof name !== 'string' || name.length === 0) return invalidParams(id, '"name" must be a non-empty string');
    if (typeof args !== 'object' || args === null || Array.isArray(args)) return invalidParams(id, '"arguments" must be an object when present');

    const answersProblem = inputAnswersProblem(params);
    if (answersProblem) return invalidParams(id, answersProblem);

    const caller = traceHeaders(params, context);
    const traced = tracing?.startCall(name, caller);
    const extras = {
      trace: traced?.outbound ?? caller,
      idempotencyKey: idempotencyKey(identify(name, params, context, id)),
      inputCapabilities: inputCapabilitiesOf(params),
      answers: readInputAnswers(params),
    };
    const outcome = await execution.call(name, args as Record<string, unknown>, context, extras);
    traced?.end(outcome.kind !== 'result' || outcome.result.isError);
    switch (outcome.kind) {
      case 'result':
        return { result: shapeResult ? shapeResult(name, outcome.result) : outcome.result };
      case 'input_required':
        return { inputRequired: outcome.input };
      case 'unknown_tool':
        return toolNotFound(id, name);
      case 'registry_unavailable':
        return registryUnavailable(id);
      case 'invalid_request_state':
        return invalidParams(id, '"requestState" was not issued by this gateway for this tool, or was altered; call the tool again without it');
    }
  };
}

/** A 2026 request's declared input capabilities (its `_meta`); a 2025 request has none to tell. */
function inputCapabilitiesOf(params: Record<string, unknown>): string | undefined {
  const declared = (params._meta as Record<string, unknown> | undefined)?.[McpMetaKey.ClientCapabilities];
  return typeof declared === 'object' && declared !== null ? declaredInputCapabilities(declared as Record<string, unknown>) : undefined;
}
