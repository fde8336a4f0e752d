import type { SpanContext } from '@opentelemetry/api';
import type { RequestContext } from '@toolmesh/transport-http/server';

import type { ToolCallOutcome } from '../call/tool-call-outcome';
import type { AuditDecision } from './audit-event';

/**
 * The audit record of one request on its way (issue 46): the decisions the checks of the call path take,
 * and what only the path knows (a tool's `isError`, the bundle of a prompt or resource). The trail makes
 * the event of it once the answer is ready (audit-trail.ts).
 */
export class AuditRecord {
  readonly decisions: AuditDecision[] = [];
  /** The tool's result was an `isError` result (a tool error, not a JSON-RPC one). */
  toolError = false;
  /** The request was answered with an MCP `input_required` round. */
  inputRequired = false;
  /** The bundle that served a prompt or resource, and the prompt's name (both from the gateway's own lookup). */
  feature?: { readonly bundle: string; readonly prompt?: string };
  /** The ids of the call's request span, when it was traced: its OpenTelemetry log record carries them. */
  spanContext?: SpanContext;

  /** Adds a decision, in the order taken. */
  decide(decision: AuditDecision): void {
    this.decisions.push(decision);
  }

  /** A prompt or resource was served by `bundle`'s server (`prompt`: the name it was found by). */
  served(bundle: string, prompt?: string): void {
    this.feature = prompt === undefined ? { bundle } : { bundle, prompt };
  }

  /** How a tool call ended, as far as its JSON-RPC answer does not say it: an `isError` result, an input round; `spanContext`: its span's. */
  ended(outcome: ToolCallOutcome, spanContext?: SpanContext): void {
    this.spanContext = spanContext;
    if (outcome.kind === 'result') this.toolError = outcome.result.isError === true;
    // A consent the user must give first (issue 48) is a round of input too, whatever form its era gives it.
    else this.inputRequired = outcome.kind === 'input_required' || outcome.kind === 'consent_required';
  }
}

/** A context with its request's audit record: made only for audited requests while the trail is on. */
interface AuditedContext extends RequestContext {
  readonly audit?: AuditRecord;
}

/**
 * The audit record of the request `context` belongs to, or undefined when the trail is off or the request
 * is not audited. How every check records its decision, in one line:
 * `auditOf(context)?.decide({ stage: 'interceptor', name, outcome: 'deny', reason: 'webhook_denied' })`.
 */
export function auditOf(context: RequestContext): AuditRecord | undefined {
  return (context as AuditedContext).audit;
}

/**
 * The context handed down the call path, carrying `record`: a copy made member by member, every member
 * present, so every audited context has one shape, as the HTTP front makes them (an object spread is the
 * generic, slower copy: docs/adr/0005-gateway-hot-path.md); the type makes a member added to
 * `RequestContext` and not copied here a compile error.
 */
export function withAuditRecord(context: RequestContext, record: AuditRecord): RequestContext {
  const audited: { readonly [Member in keyof Required<RequestContext>]: RequestContext[Member] } & AuditedContext = {
    guid: context.guid,
    requestId: context.requestId,
    sessionId: context.sessionId,
    employeeNo: context.employeeNo,
    virtualEmployeeNo: context.virtualEmployeeNo,
    authorization: context.authorization,
    caller: context.caller,
    headers: context.headers,
    clientAddress: context.clientAddress,
    deadline: context.deadline,
    receivedAt: context.receivedAt,
    hangUp: context.hangUp,
    endpoint: context.endpoint,
    audit: record,
  };
  return audited;
}
