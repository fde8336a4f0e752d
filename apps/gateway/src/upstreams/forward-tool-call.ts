import type { CallToolResult } from '@toolmesh/mcp-client';
import { errorMessage } from '@toolmesh/protocol';
import type { RequestContext } from '@toolmesh/transport-http/server';

import type { TraceHeaders } from '../execution/trace-context';
import { correlationMeta } from './correlation';
import type { UpstreamConnection } from './upstream-connection';

/** An MCP server's `CallToolResult`, passed on whole: every content block, `structuredContent`, `isError`, `_meta`. */
export interface ForwardedToolResult {
  readonly content: ReadonlyArray<Readonly<Record<string, unknown>>>;
  readonly structuredContent?: unknown;
  readonly isError?: boolean;
  readonly _meta?: Readonly<Record<string, unknown>>;
}

export interface ForwardedCall {
  readonly result: ForwardedToolResult;
  /** What went wrong, for metrics and the log line (an error's code): unset when the server answered. */
  readonly failure?: string;
}

/**
 * Forwards one `tools/call` to the tool's MCP server (issue 28) with what is left of the deadline, the
 * correlation ids and trace context in `_meta` and as headers, and the caller's hang-up as its cancellation. The server's
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
      ...(cancel && { signal: cancel.signal }),
    });
    return { result: passedOn(result) };
  } catch (error) {
    return {
      result: { content: [{ type: 'text', text: `Tool ${call.tool} failed: ${errorMessage(error)}` }], isError: true },
      failure: failureOf(error),
    };
  } finally {
    hangUp?.offHangUp(onHangUp);
  }
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
