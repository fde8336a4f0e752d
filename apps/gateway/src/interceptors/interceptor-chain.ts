import { errorMessage, printable } from '@toolmesh/protocol';

import type { AuditDecision } from '../audit/audit-event';
import { auditOf } from '../audit/audit-record';
import type { ToolCallOutcome } from '../call/tool-call-outcome';
import { GatewayErrorCode } from '../errors/gateway-errors';
import type { InterceptedCall, InterceptedResult, Interceptor, InterceptorDecision, InterceptorPhase, Verdict } from './interceptor';

/** A phase's outcome: the value it goes on with, every decision, and the refusal that stopped it, if one did. */
export interface PhaseOutcome<T> {
  readonly value: T;
  readonly decisions: InterceptorDecision[];
  readonly refusal?: InterceptorRefusal;
}

/** Why a call was refused: an `enforce` interceptor's denial, or its failure without `failOpen`. */
export interface InterceptorRefusal {
  readonly interceptor: string;
  readonly reason: string;
  readonly code: typeof GatewayErrorCode.InterceptorDenied | typeof GatewayErrorCode.InterceptorFailed;
}

/**
 * The interceptors that apply to one tool on one endpoint, in configuration order (SEP-2624's chain
 * semantics): request judges before the call, each seeing the arguments as the ones before it left them;
 * response judges on the result. An `enforce` denial stops the chain and the call; an `audit` one is recorded
 * as `would-deny` and changes nothing, nor does an `audit` change. A judge that fails (throws, times out,
 * answers nonsense) lets the call pass when its interceptor is `audit` or `failOpen`, else refuses it.
 * Built at configuration load, only for tools some interceptor selects: other calls never meet a chain.
 */
export class InterceptorChain {
  private readonly onRequest: readonly Interceptor[];
  private readonly onResponse: readonly Interceptor[];
  /** The interceptors' names, in order (`/actuator` and tests). */
  readonly names: readonly string[];

  constructor(interceptors: readonly Interceptor[]) {
    this.names = interceptors.map((interceptor) => interceptor.name);
    this.onRequest = interceptors.filter((interceptor) => interceptor.request !== undefined);
    this.onResponse = interceptors.filter((interceptor) => interceptor.response !== undefined);
  }

  /** The call run between its phases: a refused call's tool service gets nothing; the caller gets a tool error. */
  async around(call: InterceptedCall, run: (args: Record<string, unknown>) => Promise<ToolCallOutcome>): Promise<ToolCallOutcome> {
    const before = await this.request(call);
    if (before.refusal) {
      recordDecisions(call, before.decisions);
      return refusedOutcome(call.tool.name, before.refusal);
    }
    const outcome = await run(before.value);
    if (outcome.kind !== 'result' || this.onResponse.length === 0) {
      recordDecisions(call, before.decisions);
      return outcome;
    }
    const after = await this.response({ ...call, args: before.value }, outcome.result);
    recordDecisions(call, before.decisions);
    recordDecisions(call, after.decisions);
    if (after.refusal) return refusedOutcome(call.tool.name, after.refusal);
    return after.value === outcome.result ? outcome : { kind: 'result', result: after.value };
  }

  request(call: InterceptedCall): Promise<PhaseOutcome<Record<string, unknown>>> {
    return runPhase(this.onRequest, 'request', call.args as Record<string, unknown>, (interceptor, args) =>
      (interceptor.request as NonNullable<Interceptor['request']>)({ ...call, args }),
    );
  }

  response(call: InterceptedCall, result: InterceptedResult): Promise<PhaseOutcome<InterceptedResult>> {
    return runPhase(this.onResponse, 'response', result, (interceptor, current) =>
      (interceptor.response as NonNullable<Interceptor['response']>)(call, current),
    );
  }
}

type Judge<T> = (interceptor: Interceptor, value: T) => Verdict | Promise<Verdict>;

async function runPhase<T>(
  interceptors: readonly Interceptor[],
  phase: InterceptorPhase,
  start: T,
  judge: Judge<T>,
): Promise<PhaseOutcome<T>> {
  const decisions: InterceptorDecision[] = [];
  let value = start;
  for (const interceptor of interceptors) {
    const decide = (outcome: InterceptorDecision['outcome'], reason?: string) =>
      decisions.push({ stage: 'interceptor', interceptor: interceptor.name, phase, outcome, ...(reason !== undefined && { reason }) });
    const enforced = interceptor.mode === 'enforce';
    let verdict: Verdict;
    try {
      verdict = await judge(interceptor, value);
      if (verdict.kind === 'modify' && 'args' in verdict !== (phase === 'request'))
        throw new Error(`it answered a modified ${'args' in verdict ? 'arguments' : 'result'} on the ${phase}`);
    } catch (error) {
      const reason = printable(errorMessage(error), 300);
      decide('error', reason);
      if (enforced && !interceptor.failOpen)
        return {
          value,
          decisions,
          refusal: { interceptor: interceptor.name, reason: failedReason(reason), code: GatewayErrorCode.InterceptorFailed },
        };
      continue;
    }
    if (verdict.kind === 'allow') decide('allow');
    else if (verdict.kind === 'deny') {
      decide(enforced ? 'deny' : 'would-deny', verdict.reason);
      if (enforced)
        return {
          value,
          decisions,
          refusal: { interceptor: interceptor.name, reason: verdict.reason, code: GatewayErrorCode.InterceptorDenied },
        };
    } else {
      decide(enforced ? 'modified' : 'would-modify');
      if (enforced) value = ('args' in verdict ? verdict.args : verdict.result) as T;
    }
  }
  return { value, decisions };
}

/**
 * The decisions in the request's audit record, when the trail is on (audit-event.ts's vocabulary): an
 * audit-mode change not applied is an `allow` whose reason says it would have changed; a failure's reason
 * says whether it let the call pass. The interceptor's own words stay out of the trail: a guardrail's
 * reason may quote what the caller sent.
 */
function recordDecisions({ context }: InterceptedCall, decisions: readonly InterceptorDecision[]): void {
  const record = auditOf(context);
  if (record === undefined) return;
  for (const { interceptor: name, outcome } of decisions) {
    let decision: AuditDecision;
    if (outcome === 'would-modify') decision = { stage: 'interceptor', name, outcome: 'allow', reason: 'would_modify' };
    else if (outcome === 'error') decision = { stage: 'interceptor', name, outcome, reason: 'interceptor_failed' };
    else decision = { stage: 'interceptor', name, outcome };
    record.decide(decision);
  }
}

function failedReason(reason: string): string {
  return `it failed (${reason}) and does not fail open (failOpen: false)`;
}

/** The caller's tool error: which interceptor refused the call and why, in both eras the same. */
function refusedOutcome(tool: string, refusal: InterceptorRefusal): ToolCallOutcome {
  const text = `Tool ${tool} was refused by interceptor ${refusal.interceptor}: ${refusal.reason} [${refusal.code}]`;
  return { kind: 'result', result: { content: [{ type: 'text', text, _meta: { searchTime: 0 } }], isError: true } };
}
