/**
 * The audit trail's vocabulary (issue 46; docs/gateway.md, "Audit trail"): one event per audited request,
 * and the decisions each check of the call path adds to it. Nothing here ever holds a body, an argument's
 * value, a credential or a subject in the clear.
 */

/** Which check decided: the caller's scopes, the rate limits, the arguments' schema, an interceptor, a tool's pinned definition. */
export type AuditStage = 'authorization' | 'rateLimit' | 'validation' | 'interceptor' | 'definition';

/**
 * What the check decided: `would-deny` is a check in audit mode that let the call pass; `modified`
 * changed the arguments or the result; `error` is a check that could not decide (a webhook down).
 */
export type AuditDecisionOutcome = 'allow' | 'deny' | 'would-deny' | 'modified' | 'error';

/** One decision on the way of a request, in the order they were taken. */
export interface AuditDecision {
  readonly stage: AuditStage;
  /** Which check of its stage, when a stage has several (an interceptor's configured name). */
  readonly name?: string;
  readonly outcome: AuditDecisionOutcome;
  /** A short code of the gateway's (`insufficient_scope`, `per_caller`, `invalid_arguments`): never a value the caller sent. */
  readonly reason?: string;
}

/** The decisions every call takes, made once: recording one allocates nothing. */
export const AuditDecisions = {
  authorized: { stage: 'authorization', outcome: 'allow' },
  insufficientScope: { stage: 'authorization', outcome: 'deny', reason: 'insufficient_scope' },
  withinRateLimits: { stage: 'rateLimit', outcome: 'allow' },
  validArguments: { stage: 'validation', outcome: 'allow' },
  invalidArguments: { stage: 'validation', outcome: 'deny', reason: 'invalid_arguments' },
} as const satisfies Record<string, AuditDecision>;

/** The request methods audited: each is a use of a tool or a feature of a bundle (`search_tools` is a `tools/call`). */
export const AUDITED_METHODS: ReadonlySet<string> = new Set(['tools/call', 'resources/read', 'prompts/get']);

/**
 * How the request ended: a result, a tool's `isError` result, an MCP `input_required` round, a JSON-RPC
 * error (`code`), an answer that became an event stream (its end is not awaited), or a refusal at the door
 * (401 / 403 before the body was read). `status` is the HTTP status of the answer.
 */
export interface AuditOutcome {
  readonly kind: 'result' | 'toolError' | 'inputRequired' | 'error' | 'stream' | 'refused';
  readonly status: number;
  readonly code?: number;
}

/** One audited request, as the JSON line the trail writes (`type: "request"`). */
export interface AuditRequestEvent {
  readonly type: 'request';
  /** When the answer was ready, ISO 8601 UTC. */
  readonly time: string;
  readonly guid: string;
  readonly requestId: string;
  /** The MCP path the request came in on. */
  readonly endpoint: string;
  /** Absent only for a 2025 request refused at the door: its body is never read (a 2026 one names it in `Mcp-Method`). */
  readonly method?: string;
  /** The bundle that serves the tool, prompt or resource; absent for the gateway's own (`search_tools`, its skills). */
  readonly bundle?: string;
  /** A tool's name, only when the catalogue has that tool (a name the caller made up is never written). */
  readonly tool?: string;
  /** A prompt's name, only when a bundle serves that prompt. */
  readonly prompt?: string;
  /** A resource's URI scheme only (`file:`): the rest of a URI can carry data (a template's filled-in arguments). */
  readonly resource?: string;
  /** HMAC-SHA256 (hex) of the verified subject under the operator's `audit.subjectKey`; absent without authentication. */
  readonly caller?: string;
  /** The verified token's `client_id` (else `azp`). */
  readonly clientId?: string;
  readonly decisions: readonly AuditDecision[];
  readonly outcome: AuditOutcome;
  readonly durationMs: number;
  /** The request's `Content-Length` (a batch member's is the whole batch's). */
  readonly bytesIn?: number;
  /** The JSON answer's length; absent for an event stream. */
  readonly bytesOut?: number;
}

/** An event of the gateway's own, not of a request (`type: "notice"`): a tool's definition that changed (`definition` stage). */
export interface AuditNotice {
  readonly bundle?: string;
  readonly tool?: string;
  readonly decision: AuditDecision;
}

export interface AuditNoticeEvent extends AuditNotice {
  readonly type: 'notice';
  readonly time: string;
}

export type AuditEvent = AuditRequestEvent | AuditNoticeEvent;
