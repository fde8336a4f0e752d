import type { ToolDefinition } from '@toolmesh/registry';
import { remainingMillis, type RequestContext } from '@toolmesh/transport-http/server';

import type { InputAnswers, InputRequired } from '../call/input-required';
import type { TraceHeaders } from '../call/trace-context';
import type { ForwardedToolResult } from '../upstreams/forward-tool-call';
import type { CallerRelay } from '../upstreams/server-request-relay';
import type { UpstreamRefusal } from '../upstreams/upstream-refusal';
import { type GatewayCallToolResult, toolResult } from './result-mapper';

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

/** How a call ended, for the era to answer: whichever invoker made the call, the same few kinds. */
export type ToolCallOutcome =
  | { kind: 'result'; result: GatewayCallToolResult }
  | { kind: 'forwarded'; result: ForwardedToolResult }
  | { kind: 'input_required'; input: InputRequired }
  | { kind: 'refused_upstream'; refusal: UpstreamRefusal }
  | { kind: 'invalid_request_state' };

/** Told of every call that reached a tool's source: for the tool-call metrics (SPEC G23). `failure`: its kind, when it failed. */
export type ToolCallObserver = (tool: string, durationMs: number, failure: string | undefined) => void;

/** A result the gateway gives itself, the tool not called: an `isError` result saying why. */
export function notCalled(tool: string, why: string): ToolCallOutcome {
  return { kind: 'result', result: toolResult(`Tool ${tool} was not called: ${why}.`, true, 0) };
}

/**
 * The one place a call's deadline is computed: what is left of the request's, capped by the tool's own
 * timeout and the gateway's cap (SPEC G12); whole milliseconds.
 */
export function callTimeoutMillis(tool: ToolDefinition, maxToolTimeoutMillis: number, context: RequestContext): number {
  return Math.ceil(Math.min(tool.timeoutMillis ?? Infinity, maxToolTimeoutMillis, remainingMillis(context)));
}
