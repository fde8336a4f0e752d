import type { CallToolResult, InputRequiredResult } from '@toolmesh/mcp-client';
import { errorMessage } from '@toolmesh/protocol';
import type { RequestContext } from '@toolmesh/transport-http/server';

import { type InputRequired, missingCapabilities } from '../call/input-required';
import type { ForwardedToolResult, ToolCallOutcome } from '../call/tool-call-outcome';
import type { TraceHeaders } from '../call/trace-context';
import { GatewayErrorCode } from '../errors/gateway-errors';
import type { CallerStream } from './caller-stream';
import { correlationMeta } from './correlation';
import type { ForwardedState } from './forwarded-state';
import { HELD_CALL_MILLIS, type HeldCalls } from './held-calls';
import { RelayedCall } from './relayed-call';
import { type CallerRelay, RelayRefusal } from './server-request-relay';
import type { UpstreamCall, UpstreamConnection } from './upstream-connection';
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

/** What is forwarded of one call: the tool on both sides, its arguments, and from a 2026 caller its MRTR part. */
export interface ForwardedCallRequest {
  readonly tool: string;
  readonly upstreamTool: string;
  readonly args: Record<string, unknown>;
  /** A retry's answers, and the state the gateway sealed for it, opened. */
  readonly answers?: { readonly inputResponses?: Record<string, unknown>; readonly state?: ForwardedState };
  /** The input capabilities a 2026 caller declared; undefined for a 2025 caller, who cannot be asked. */
  readonly callerCapabilities?: Readonly<Record<string, unknown>>;
  /** A 2025 caller that can be asked on its call's event stream. */
  readonly callerRelay?: CallerRelay;
  /** The caller as the call's answer reaches it: told the call's progress when it asked, and of its going away. */
  readonly callerStream?: CallerStream;
}

/** What forwarding needs of this replica: the tool's server and bundle, and the calls held for a retry. */
export interface ForwardingTo {
  /** The tool's MCP server bundle, whose held calls are counted together. */
  readonly bundle: string;
  /** The connection, or while it is being made, its promise. */
  readonly connection: UpstreamConnection | Promise<UpstreamConnection>;
  readonly held: HeldCalls<ForwardedCall>;
}

/**
 * Forwards one `tools/call` to the tool's MCP server (issue 28) with what is left of the deadline, the
 * correlation ids and trace context in `_meta` and as headers, the caller's hang-up as its cancellation, and
 * the server's progress to a caller that asked for it (under the caller's own token: issue 44). The server's
 * result goes back whole, and so does its refusal of what our caller sent (-32602, a 2026 caller's -32021);
 * a failure to get one (no connection, no answer in time, a lost connection, the server's other JSON-RPC
 * errors, an open circuit) becomes an `isError` result the model can read. A request the
 * server sends during the call is put to a 2026 caller as `input_required` while the call is held here
 * for the retry (cancelled instead, with an `isError` result, when as many as `mcp.heldCalls` allows are
 * held), and to a 2025 caller on the call's event stream; a 2026 caller that did not declare what it
 * needs, or a 2025 caller that cannot take a stream, is not asked (the server gets an error answer).
 * Not async: it awaits nothing itself, and an async function that returns a promise costs two more turns
 * of the microtask queue on every call (docs/adr/0005-gateway-hot-path.md).
 */
export function forwardToolCall(
  to: ForwardingTo,
  call: ForwardedCallRequest,
  context: RequestContext,
  trace: TraceHeaders | undefined,
  timeoutMillis: number,
): Promise<ForwardedCall> {
  const state = call.answers?.state;
  if (state !== undefined && 'held' in state) {
    const held = to.held.take(state.held);
    if (held === undefined)
      return Promise.resolve({ kind: 'result', result: errorResult(`Tool ${call.tool}: ${HELD_CALL_GONE}`), failure: 'held_call_gone' });
    held.answer(call.answers?.inputResponses);
    return follow(held, call, context, timeoutMillis, to);
  }
  const answers: { inputResponses?: Record<string, unknown>; requestState?: string } = {};
  if (call.answers?.inputResponses) answers.inputResponses = call.answers.inputResponses;
  if (state) answers.requestState = state.upstream;
  // Handlers on the call's promise, not an async function: one promise and turn fewer per call (ADR 0005, fourteenth round).
  const relayed = new RelayedCall<ForwardedCall>((relay) =>
    upstreamCall(to.connection, call, {
      timeoutMillis,
      meta: correlationMeta(context, trace),
      callerCapabilities: call.callerCapabilities ?? {},
      answers,
      relay,
      deadline: relay.deadline,
      onProgress: call.callerStream?.progress,
      onLog: call.callerStream?.log,
      logLevel: call.callerStream?.logLevel,
    }).then(
      (result): ForwardedCall =>
        isInputRequired(result) ? { kind: 'input_required', input: inputOf(result) } : { kind: 'result', result: passedOn(result) },
      (error: unknown): ForwardedCall => {
        const refusal = refusalOf(error, call.callerCapabilities);
        if (refusal !== undefined) return { kind: 'refused_upstream', refusal };
        return { kind: 'result', result: errorResult(`Tool ${call.tool} failed: ${errorMessage(error)}`), failure: failureOf(error) };
      },
    ),
  );
  return follow(relayed, call, context, timeoutMillis, to);
}

/** The call on the server's connection: at once when the connection is made, else once it is. A failure is the promise's, never thrown. */
function upstreamCall(
  connection: ForwardingTo['connection'],
  call: ForwardedCallRequest,
  options: UpstreamCall,
): Promise<CallToolResult | InputRequiredResult> {
  try {
    if (connection instanceof Promise) return connection.then((open) => open.callTool(call.upstreamTool, call.args, options));
    return connection.callTool(call.upstreamTool, call.args, options);
  } catch (error) {
    return Promise.reject(error);
  }
}

/** A held call is gone: the retry reached another replica, or came too late. */
const HELD_CALL_GONE = `its call is not waiting for these answers on this replica (held ${HELD_CALL_MILLIS / 1000} s at most, on the replica that asked); call the tool again without requestState`;

/** Too many calls are held: the server's request is withdrawn and the call cancelled, not held. */
const HELD_CALLS_FULL = `its server asked for your input, but this gateway already holds as many calls waiting for input as it may, so the call was cancelled; call the tool again later`;

/** Follows the call within this request's deadline and hang-up, until it ends or asks our caller for input. */
async function follow(
  relayed: RelayedCall<ForwardedCall>,
  call: ForwardedCallRequest,
  context: RequestContext,
  timeoutMillis: number,
  to: ForwardingTo,
): Promise<ForwardedCall> {
  const { hangUp } = context;
  relayed.deadline.start(timeoutMillis);
  const onHangUp = () => relayed.cancel('the caller hung up');
  hangUp?.onHangUp(onHangUp);
  call.callerStream?.onClose(() => relayed.cancel('the caller cancelled the call or closed its stream'));
  try {
    for (;;) {
      const progress = await relayed.next();
      if ('ended' in progress) return progress.ended;
      const input: InputRequired = { inputRequests: Object.fromEntries(progress.asks) };
      const declared = call.callerCapabilities;
      if (declared === undefined) {
        // A 2025 caller is asked on its call's event stream; which of them it can answer was declared at an
        // initialize this stateless gateway never kept, so one that cannot answers with an error of its own.
        const { callerRelay } = call;
        if (callerRelay === undefined) relayed.refuse(new RelayRefusal('the caller of this call cannot take an event stream'));
        else for (const [key, request] of progress.asks) relayed.settle(key, callerRelay.ask(request, relayed.signal));
        continue;
      }
      const missing = Object.keys(missingCapabilities(input, declared));
      if (missing.length > 0) {
        relayed.refuse(new RelayRefusal(`the caller of this call did not declare ${missing.join(', ')}`));
        relayed.cancel('the caller cannot answer');
        return { kind: 'input_required', input }; // answered -32021 by the 2026 era, naming what is missing
      }
      relayed.deadline.stop();
      const held = to.held.hold(relayed, to.bundle);
      if (held !== undefined) return { kind: 'input_required', input, held };
      relayed.cancel('the gateway holds as many calls waiting for input as it may');
      return { kind: 'result', result: errorResult(`Tool ${call.tool}: ${HELD_CALLS_FULL}`), failure: GatewayErrorCode.HeldCallsFull };
    }
  } finally {
    hangUp?.offHangUp(onHangUp);
  }
}

/** Runs one request to an MCP server with a signal aborted when the caller hangs up (none when the front cannot tell). */
export async function withHangUp<T>(context: RequestContext, run: (signal: AbortSignal | undefined) => Promise<T>): Promise<T> {
  const { hangUp } = context;
  const cancel = hangUp && new AbortController();
  const onHangUp = () => cancel?.abort(new Error('the caller hung up'));
  hangUp?.onHangUp(onHangUp);
  try {
    return await run(cancel?.signal);
  } finally {
    hangUp?.offHangUp(onHangUp);
  }
}

function errorResult(text: string): ForwardedToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

/**
 * The result's own members only: what an SDK adds on its side (a 2026 `resultType`) is the era's to say
 * again. Built member by member: spreads of each call's objects kept them past two young collections
 * (docs/adr/0005-gateway-hot-path.md, twelfth round).
 */
function passedOn({ content, structuredContent, isError, _meta }: CallToolResult): ForwardedToolResult {
  const result: { -readonly [K in keyof ForwardedToolResult]: ForwardedToolResult[K] } = {
    content: (content ?? []) as ForwardedToolResult['content'],
  };
  if (structuredContent !== undefined) result.structuredContent = structuredContent;
  if (isError !== undefined) result.isError = isError;
  if (_meta !== undefined) result._meta = _meta;
  return result;
}

function isInputRequired(result: CallToolResult | InputRequiredResult): result is InputRequiredResult {
  return (result as { resultType?: unknown }).resultType === 'input_required';
}

function inputOf({ inputRequests, requestState }: InputRequiredResult): InputRequired {
  return { ...(inputRequests !== undefined && { inputRequests }), ...(requestState !== undefined && { requestState }) };
}

function failureOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : typeof code === 'number' ? 'jsonrpc_error' : 'failed';
}
