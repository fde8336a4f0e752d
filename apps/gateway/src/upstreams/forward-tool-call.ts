import type { CallToolResult } from '@toolmesh/mcp-client';
import { errorMessage } from '@toolmesh/protocol';
import type { RequestContext } from '@toolmesh/transport-http/server';

import type { InputRequired } from '../call/input-required';
import type { ForwardedToolResult, ToolCallOutcome } from '../call/tool-call-outcome';
import type { TraceHeaders } from '../call/trace-context';
import { GatewayErrorCode } from '../errors/gateway-errors';
import { correlationMeta } from './correlation';
import { HELD_CALL_MILLIS } from './held-calls';
import { type ForwardingTo, forwardRelayed, type RelayedRequest, type RelayEnds } from './relayed-request';
import { refusalOf } from './upstream-refusal';

/**
 * How a forwarded call ended, in the outcome's own words (`ToolCallOutcome`), so that it goes up to the era
 * as it is, with what only forwarding knows beside it.
 */
export type ForwardedCall =
  | {
      readonly kind: 'result';
      readonly result: ForwardedToolResult;
      /** What went wrong, for metrics and the log line (an error's code): unset when the server answered. */
      readonly failure?: string;
    }
  /**
   * The server asks our caller for input: a 2026-07-28 server's `input_required` (its own `requestState`
   * still unsealed), or a 2025 server's requests during a call now `held` here under that key for the retry.
   */
  | { readonly kind: 'input_required'; readonly input: InputRequired; readonly held?: string }
  /** The server refused what our caller sent: the caller gets the same JSON-RPC error (upstream-refusal.ts). */
  | Extract<ToolCallOutcome, { kind: 'refused_upstream' }>;

/** What is forwarded of one call: its `tools/call` of the tool's name on its server (`target`), and the tool as our caller named it. */
export interface ForwardedCallRequest extends RelayedRequest {
  readonly method: 'tools/call';
  readonly tool: string;
  readonly args: Record<string, unknown>;
}

/**
 * Forwards one `tools/call` to the tool's MCP server (issue 28) as any relayed request is forwarded
 * (relayed-request.ts: the deadline, the caller's hang-up, its progress and log messages, the server's
 * requests on the way). The server's result goes back whole, and so does its refusal of what our caller
 * sent (-32602, a 2026 caller's -32021); a failure to get one (no connection, no answer in time, a lost
 * connection, the server's other JSON-RPC errors, an open circuit) becomes an `isError` result the model
 * can read, and so does a call that cannot be held for the retry.
 */
export function forwardToolCall(
  to: ForwardingTo,
  call: ForwardedCallRequest,
  context: RequestContext,
  trace: TraceHeaders | undefined,
  timeoutMillis: number,
): Promise<ForwardedCall> {
  return forwardRelayed(to, call, context, correlationMeta(context, trace), timeoutMillis, TOOL_CALL_ENDS);
}

/** A held call is gone: the retry reached another replica, or came too late. */
const HELD_CALL_GONE = `its call is not waiting for these answers on this replica (held ${HELD_CALL_MILLIS / 1000} s at most, on the replica that asked); call the tool again without requestState`;

/** Too many calls are held: the server's request is withdrawn and the call cancelled, not held. */
const HELD_CALLS_FULL = `its server asked for your input, but this gateway already holds as many calls waiting for input as it may, so the call was cancelled; call the tool again later`;

/** How a forwarded call ends, as an outcome: one object for every call (no closure per call: ADR 0005). */
const TOOL_CALL_ENDS: RelayEnds<ForwardedCall, ForwardedCallRequest> = {
  answered: (result) => ({ kind: 'result', result: passedOn(result as CallToolResult) }),
  failed: (error, call) => {
    const refusal = refusalOf(error, call.callerCapabilities);
    if (refusal !== undefined) return { kind: 'refused_upstream', refusal };
    return { kind: 'result', result: errorResult(`Tool ${call.tool} failed: ${errorMessage(error)}`), failure: failureOf(error) };
  },
  inputRequired: (input, held) => (held === undefined ? { kind: 'input_required', input } : { kind: 'input_required', input, held }),
  notHeld: (why, call) =>
    why === 'gone'
      ? { kind: 'result', result: errorResult(`Tool ${call.tool}: ${HELD_CALL_GONE}`), failure: 'held_call_gone' }
      : { kind: 'result', result: errorResult(`Tool ${call.tool}: ${HELD_CALLS_FULL}`), failure: GatewayErrorCode.HeldCallsFull },
};

function errorResult(text: string): ForwardedToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

/**
 * The result's own members only: what an SDK adds on its side (a 2026 `resultType`) is the era's to say
 * again. Built member by member: spreads of each call's objects kept them past two young collections
 * (docs/adr/0005-gateway-hot-path.md, twelfth round).
 */
export function passedOn({ content, structuredContent, isError, _meta }: CallToolResult): ForwardedToolResult {
  const result: { -readonly [K in keyof ForwardedToolResult]: ForwardedToolResult[K] } = {
    content: (content ?? []) as ForwardedToolResult['content'],
  };
  if (structuredContent !== undefined) result.structuredContent = structuredContent;
  if (isError !== undefined) result.isError = isError;
  if (_meta !== undefined) result._meta = _meta;
  return result;
}

function failureOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : typeof code === 'number' ? 'jsonrpc_error' : 'failed';
}
