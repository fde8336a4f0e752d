import type { CallToolResult } from '@toolmesh/mcp-client';
import { errorMessage, McpMetaKey } from '@toolmesh/protocol';
import type { RequestContext } from '@toolmesh/transport-http/server';

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

export interface ForwardedCall {
  readonly result: ForwardedToolResult;
  /** What went wrong, for metrics and the log line (an error's code): unset when the server answered. */
  readonly failure?: string;
}

/**
 * Forwards one `tools/call` to the tool's MCP server (issue 28) with what is left of the deadline, the
 * correlation ids and trace context in `_meta`, and the caller's hang-up as its cancellation. The server's
 * result goes back whole; a failure to get one (no connection, no answer in time, a lost connection, the
 * server's JSON-RPC error, an open circuit) becomes an `isError` result the model can read.
 */
export async function forwardToolCall(
  connection: Promise<UpstreamConnection>,
  call: { readonly tool: string; readonly upstreamTool: string; readonly args: Record<string, unknown> },
  context: RequestContext,
  trace: TraceHeaders | undefined,
  timeoutMillis: number,
): Promise<ForwardedCall> {
  try {
    const result = await withHangUp(context, async (signal) =>
      (await connection).callTool(call.upstreamTool, call.args, {
        timeoutMillis,
        meta: correlationMeta(context, trace),
        ...(signal && { signal }),
      }),
    );
    return { result: passedOn(result) };
  } catch (error) {
    return {
      result: { content: [{ type: 'text', text: `Tool ${call.tool} failed: ${errorMessage(error)}` }], isError: true },
      failure: failureOf(error),
    };
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

/** The `_meta` every forwarded request carries: the correlation ids, and the trace context when the caller sent one. */
export function correlationMeta(context: RequestContext, trace: TraceHeaders | undefined): Record<string, unknown> {
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

function failureOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : typeof code === 'number' ? 'jsonrpc_error' : 'failed';
}
