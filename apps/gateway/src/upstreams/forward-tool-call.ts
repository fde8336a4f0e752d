import type { CallToolResult, InputRequiredResult, RelayedAnswers } from '@toolmesh/mcp-client';
import { errorMessage, McpMetaKey } from '@toolmesh/protocol';
import type { RequestContext } from '@toolmesh/transport-http/server';

import type { InputRequired } from '../execution/input-required';
import type { TraceHeaders } from '../execution/trace-context';
import type { UpstreamConnection } from './upstream-connection';

/** An MCP server's `CallToolResult`, passed on whole: every content block, `structuredContent`, `isError`, `_meta`. */
export interface ForwardedToolResult {
  readonly content: ReadonlyArray<Readonly<Record<string, unknown>>>;
  readonly structuredContent?: unknown;
  readonly isError?: boolean;
  readonly _meta?: Readonly<Record<string, unknown>>;
}

/** The `_meta` keys of the correlation ids an MCP server gets with each forwarded call (docs/gateway.md). */
const CORRELATION_META_KEYS = { guid: 'io.toolmesh/guid', requestId: 'io.toolmesh/requestId' } as const;

export type ForwardedCall =
  | {
      readonly result: ForwardedToolResult;
      /** What went wrong, for metrics and the log line (an error's code): unset when the server answered. */
      readonly failure?: string;
    }
  /** A 2026-07-28 server asks our caller for input (MRTR): its requests and its own, still unsealed, `requestState`. */
  | { readonly input: InputRequired };

/** What is forwarded of one call: the tool on both sides, its arguments, and from a 2026 caller its MRTR part. */
export interface ForwardedCallRequest {
  readonly tool: string;
  readonly upstreamTool: string;
  readonly args: Record<string, unknown>;
  /** A retry's answers, the server's own `requestState` among them once the gateway's seal is opened. */
  readonly answers?: RelayedAnswers;
  readonly callerCapabilities: Readonly<Record<string, unknown>>;
}

/**
 * Forwards one `tools/call` to the tool's MCP server (issue 28) with what is left of the deadline, the
 * correlation ids and trace context in `_meta`, and the caller's hang-up as its cancellation. The server's
 * result goes back whole; a failure to get one (no connection, no answer in time, a lost connection, the
 * server's JSON-RPC error, an open circuit) becomes an `isError` result the model can read.
 */
export async function forwardToolCall(
  connection: Promise<UpstreamConnection>,
  call: ForwardedCallRequest,
  context: RequestContext,
  trace: TraceHeaders | undefined,
  timeoutMillis: number,
): Promise<ForwardedCall> {
  const { hangUp } = context;
  const cancel = hangUp && new AbortController();
  const onHangUp = () => cancel?.abort(new Error('the caller hung up'));
  hangUp?.onHangUp(onHangUp);
  try {
    const result = await (
      await connection
    ).callTool(call.upstreamTool, call.args, {
      timeoutMillis,
      meta: correlationMeta(context, trace),
      callerCapabilities: call.callerCapabilities,
      ...(call.answers && { answers: call.answers }),
      ...(cancel && { signal: cancel.signal }),
    });
    return isInputRequired(result) ? { input: inputOf(result) } : { result: passedOn(result) };
  } catch (error) {
    return {
      result: { content: [{ type: 'text', text: `Tool ${call.tool} failed: ${errorMessage(error)}` }], isError: true },
      failure: failureOf(error),
    };
  } finally {
    hangUp?.offHangUp(onHangUp);
  }
}

function correlationMeta(context: RequestContext, trace: TraceHeaders | undefined): Record<string, unknown> {
  return {
    [CORRELATION_META_KEYS.guid]: context.guid,
    [CORRELATION_META_KEYS.requestId]: context.requestId,
    ...(trace?.traceparent !== undefined && { [McpMetaKey.Traceparent]: trace.traceparent }),
    ...(trace?.tracestate !== undefined && { [McpMetaKey.Tracestate]: trace.tracestate }),
  };
}

/** The result's own members only: what an SDK adds on its side (a 2026 `resultType`) is the era's to say again. */
function passedOn({ content, structuredContent, isError, _meta }: CallToolResult): ForwardedToolResult {
  return {
    content: (content ?? []) as ForwardedToolResult['content'],
    ...(structuredContent !== undefined && { structuredContent }),
    ...(isError !== undefined && { isError }),
    ...(_meta !== undefined && { _meta }),
  };
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
