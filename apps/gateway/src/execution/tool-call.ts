import type { Logger, RequestContext } from '@toolmesh/transport-http/server';

import type { InputAnswers } from '../call/input-required';
import type { ToolCallOutcome } from '../call/tool-call-outcome';
import type { TraceHeaders } from '../call/trace-context';
import type { CallerStream } from '../upstreams/caller-stream';
import type { CallerRelay } from '../upstreams/server-request-relay';
import { toolResult } from './result-mapper';
import type { TaskWish } from './tasks/long-calls';

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
  /** The caller as the answer of an MCP server's tool reaches it: its going away, its progress (issue 44). */
  readonly callerStream?: CallerStream;
  /** The caller asked for a task, should a long tool's service accept the call (issue 47). */
  readonly task?: TaskWish;
}

/** Told of every call that reached a tool's source: for the tool-call metrics (SPEC G23). `failure`: its kind, when it failed. */
export type ToolCallObserver = (tool: string, durationMs: number, failure: string | undefined) => void;

/** A result the gateway gives itself, the tool not called: an `isError` result saying why. */
export function notCalled(tool: string, why: string): ToolCallOutcome {
  return { kind: 'result', result: toolResult(`Tool ${tool} was not called: ${why}.`, true, 0) };
}

/**
 * The one log line of a call that reached its source (SPEC G3): its status (an HTTP status, a failure's kind,
 * `is_error`, ...) and duration. A cancelled call is logged as such: nobody is left to read its result.
 */
export function logCallEnd(logger: Logger, tool: string, status: string | number, durationMs: number, context: RequestContext): void {
  logger.info(status === 'cancelled' ? 'tool_call_cancelled' : 'tool_call_completed', { tool, status, durationMs }, context);
}
