import { McpClientError, McpClientErrorCode } from './client-errors';

/**
 * How the SDKs fail, at 2026-07-28, a handler that asks its client the 2025 way: `elicitation/create`,
 * `sampling/createMessage` or `roots/list` sent as a request of the server's own, which that revision
 * removed (a handler asks by answering `input_required` instead). Such a server may still do it with
 * 2025-11-25, which it also speaks. The texts, as each SDK sends them (captured in
 * tools/test/peers/python-mcp-server.mjs):
 * - Python `mcp` 2.x (`ctx.elicit`, `ctx.session.create_message`): the call's JSON-RPC error `-32600`
 *   "Cannot send 'elicitation/create': this transport context has no back-channel for server-initiated requests.";
 * - fastmcp 4.x: a tool error, "elicitation via server-initiated requests is unavailable on 2026-07-28
 *   connections." (`ctx.elicit`), or the text above after "Error calling tool '…': " (sampling);
 * - the TypeScript SDK v2 (`createMessage`, `elicitInput`): "Server-to-client requests are not available on
 *   protocol revision 2026-07-28: …" in a tool error.
 * The wording is all that tells this failure from any other: no result, error code or discover field says it.
 */
const ASKED_THE_2025_WAY =
  /no back-channel for server-initiated requests|via server-initiated requests is unavailable|server-to-client requests are not available/i;

/** The most of a server's text a message quotes. */
const QUOTED_CHARS = 300;

/**
 * The `client.server_requests_need_legacy` error for a 2026-07-28 call whose server failed it because it
 * asked the 2025 way (a JSON-RPC error thrown, or a tool's `isError` result), else undefined.
 */
export function askedTheLegacyWay(serverName: string, outcome: unknown, failed: boolean): McpClientError | undefined {
  const text = failed ? errorText(outcome) : toolErrorText(outcome);
  if (text === undefined || !ASKED_THE_2025_WAY.test(text)) return undefined;
  return new McpClientError(
    McpClientErrorCode.ServerRequestsNeedLegacy,
    `MCP server "${serverName}" asked its client with a request of its own, which 2026-07-28 has no channel for: ${JSON.stringify(text.slice(0, QUOTED_CHARS))}`,
    failed ? { cause: outcome } : undefined,
  );
}

export function isLegacyAsk(error: unknown): error is McpClientError {
  return error instanceof McpClientError && error.code === McpClientErrorCode.ServerRequestsNeedLegacy;
}

function errorText(error: unknown): string | undefined {
  const message = (error as { message?: unknown } | null)?.message;
  return typeof message === 'string' ? message : undefined;
}

/** The text of a tool's error result: the one place a tool error's reason is (most calls succeed: checked first). */
function toolErrorText(result: unknown): string | undefined {
  const { isError, content } = (result ?? {}) as { isError?: unknown; content?: unknown };
  if (isError !== true || !Array.isArray(content)) return undefined;
  const first = content[0] as { type?: unknown; text?: unknown } | undefined;
  return first?.type === 'text' && typeof first.text === 'string' ? first.text : undefined;
}
