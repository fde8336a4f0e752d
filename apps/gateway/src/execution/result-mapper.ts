import type { ToolOutput } from '@toolmesh/registry';

import { type InputRequired, readInputRequired } from '../call/input-required';
import type { GatewayCallToolResult, ReplyForm } from '../call/tool-call-outcome';
import type { ToolHttpResponse } from '../tool-client/tool-client';

const MAX_ERROR_DETAIL = 500;

export function toolResult(text: string, isError: boolean, durationMs: number): GatewayCallToolResult {
  return { content: [{ type: 'text', text, _meta: { searchTime: durationMs } }], isError };
}

/**
 * Maps a tool service's reply to a result. Only `data` of a JSON reply is used: text as is, objects and
 * arrays as compact JSON. With an `outputSchema`, `data` is also the `structuredContent`, checked against
 * the schema first: a tool service that breaks its own schema gives an `isError` result naming the field,
 * never content a client would reject. A reply asking for input (`inputRequired`, input-required.ts) is
 * handed back as such, for the era to relay. Everything else is a tool execution failure (`isError: true`),
 * which the model can read and act on, never a JSON-RPC error.
 */
export function mapToolReply(
  toolName: string,
  reply: ToolHttpResponse,
  durationMs: number,
  output?: ToolOutput,
  form: ReplyForm = 'envelope',
): GatewayCallToolResult | { inputRequired: InputRequired } {
  if (reply.kind === 'failure') return toolResult(`Tool ${toolName} failed: ${reply.detail}.`, true, durationMs);
  if (reply.status < 200 || reply.status > 299) {
    const detail = errorDetail(reply.body);
    return toolResult(
      `Tool ${toolName} failed: the tool service answered HTTP ${reply.status}${detail ? `: ${detail}` : '.'}`,
      true,
      durationMs,
    );
  }
  if (form === 'plain') return plainReply(toolName, reply.body, durationMs, output);
  let parsed: unknown;
  try {
    parsed = JSON.parse(reply.body);
  } catch {
    return toolResult(`Tool ${toolName} failed: the tool service's reply is not JSON.`, true, durationMs);
  }
  const input = typeof parsed === 'object' && parsed !== null ? readInputRequired(parsed) : undefined;
  if (input?.ok) return { inputRequired: input.value };
  if (input)
    return toolResult(
      `Tool ${toolName} failed: the tool service asked for input in a form the gateway cannot relay: ${input.problem}.`,
      true,
      durationMs,
    );
  if (typeof parsed !== 'object' || parsed === null || !('data' in parsed)) {
    return toolResult(`Tool ${toolName} failed: the tool service's reply has no "data" member.`, true, durationMs);
  }
  return dataResult(toolName, (parsed as { data: unknown }).data, durationMs, output);
}

/**
 * An OpenAPI operation's 2xx reply is its result as it is, with no `data` envelope: JSON as for a manifest
 * tool's `data`, anything else as text, an empty body (204) as a line saying so.
 */
function plainReply(toolName: string, body: string, durationMs: number, output: ToolOutput | undefined): GatewayCallToolResult {
  if (body.trim() === '') return toolResult(`Tool ${toolName} succeeded with no content.`, false, durationMs);
  let data: unknown;
  try {
    data = JSON.parse(body);
  } catch {
    return toolResult(body, false, durationMs);
  }
  return dataResult(toolName, data, durationMs, output);
}

function dataResult(toolName: string, data: unknown, durationMs: number, output: ToolOutput | undefined): GatewayCallToolResult {
  if (output === undefined) return toolResult(typeof data === 'string' ? data : JSON.stringify(data), false, durationMs);
  const check = output.validator.check(data, 'structuredContent');
  if (!check.ok)
    return toolResult(`Tool ${toolName} failed: its reply does not match its outputSchema: ${check.problems.join('; ')}`, true, durationMs);
  // The serialized JSON as text too, for clients that read only text (SEP-2106).
  return { ...toolResult(JSON.stringify(data), false, durationMs), structuredContent: data };
}

/**
 * A short, human-readable reason from an error reply, if any: an RFC 9457 problem's `title` and `detail`
 * (`type` too when it is not `about:blank`), else `{"error": "..."}` or `{"message": "..."}`.
 */
function errorDetail(body: string): string | undefined {
  try {
    const parsed = JSON.parse(body) as { error?: unknown; message?: unknown; title?: unknown; detail?: unknown; type?: unknown };
    const problem = [parsed.title, parsed.detail].filter((text) => typeof text === 'string' && text !== '').join(': ');
    const type = typeof parsed.type === 'string' && parsed.type !== 'about:blank' && problem !== '' ? ` (${parsed.type})` : '';
    const detail =
      problem !== ''
        ? `${problem}${type}`
        : typeof parsed.error === 'string'
          ? parsed.error
          : typeof parsed.message === 'string'
            ? parsed.message
            : undefined;
    return detail?.slice(0, MAX_ERROR_DETAIL);
  } catch {
    return undefined;
  }
}
