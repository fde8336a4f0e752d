import type { ToolDefinition } from '@toolmesh/registry';
import type { RequestContext } from '@toolmesh/transport-http/server';

import type { ForwardedToolResult, GatewayCallToolResult } from '../call/tool-call-outcome';

/** Which side of a tool call an interceptor sees (SEP-2624's `phase`). */
export type InterceptorPhase = 'request' | 'response';

/** A tool's result as an interceptor sees and may replace it. */
export type InterceptedResult = GatewayCallToolResult | ForwardedToolResult;

/** The call an interceptor judges: the tool, its arguments as they stand, and the caller's request. */
export interface InterceptedCall {
  readonly tool: ToolDefinition;
  readonly args: Readonly<Record<string, unknown>>;
  readonly context: RequestContext;
}

/**
 * What an interceptor answers for one phase: let it pass, refuse it (`reason` goes to the caller, so it
 * must never quote an argument or a result), or go on with other arguments (request) or another result
 * (response).
 */
export type Verdict =
  | { readonly kind: 'allow' }
  | { readonly kind: 'deny'; readonly reason: string }
  | { readonly kind: 'modify'; readonly args: Record<string, unknown> }
  | { readonly kind: 'modify'; readonly result: InterceptedResult };

export const ALLOW: Verdict = Object.freeze({ kind: 'allow' });

/**
 * One configured interceptor (SEP-2624's descriptor, as docs/gateway.md "Interceptors" maps it): its name,
 * `mode`, `failOpen`, `timeoutMs`, and a judge per phase it runs on. A judge answers at once or by a
 * promise, which settles within `timeoutMs` (the webhook's one timer bounds its whole exchange: the chain
 * arms none per call); it may throw or reject, which the chain treats as the interceptor failing.
 */
export interface Interceptor {
  readonly name: string;
  readonly mode: 'enforce' | 'audit';
  readonly failOpen: boolean;
  readonly timeoutMs: number;
  readonly request?: (call: InterceptedCall) => Verdict | Promise<Verdict>;
  readonly response?: (call: InterceptedCall, result: InterceptedResult) => Verdict | Promise<Verdict>;
}

/**
 * One interceptor's decision on one call, for the audit trail (stage `interceptor`): `would-deny` and
 * `would-modify` are an `audit`-mode interceptor's denial or change, not applied; `error` is a failure
 * (timeout, unreachable, malformed answer) that `failOpen` or `audit` let pass, or that refused the call.
 * `reason` is the interceptor's own words or the failure, never an argument or a result.
 */
export interface InterceptorDecision {
  readonly stage: 'interceptor';
  readonly interceptor: string;
  readonly phase: InterceptorPhase;
  readonly outcome: 'allow' | 'deny' | 'would-deny' | 'modified' | 'would-modify' | 'error';
  readonly reason?: string;
}
