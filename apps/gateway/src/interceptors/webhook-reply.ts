import { printable } from '@toolmesh/protocol';
import type { ToolDefinition } from '@toolmesh/registry';

import type { InterceptedResult, InterceptorPhase, Verdict } from './interceptor';
import { ALLOW } from './interceptor';

/** The longest reason of a guardrail's denial passed to the caller; longer is cut. */
const MAX_REASON_CHARS = 300;

/**
 * A guardrail service's answer read as a verdict (docs/gateway.md, "Interceptors"; SEP-2624's result
 * shapes): `{"type":"validation","valid":true}` allows, `"valid":false` with `messages[].message` denies
 * with those words, `{"type":"mutation","modified":true,"payload":{...}}` goes on with the payload's
 * `arguments` (request) or `result` (response), `"modified":false` allows. Anything else throws an Error
 * saying what is wrong with it, never quoting it: the chain then lets `failOpen` decide.
 */
export function parseWebhookReply(reply: unknown, phase: InterceptorPhase, tool: ToolDefinition): Verdict {
  if (!isObject(reply)) throw new Error('the guardrail answered something other than a JSON object');
  if (reply.type === 'validation') {
    if (reply.valid === true) return ALLOW;
    if (reply.valid !== false) throw new Error('the guardrail answered a validation without a boolean "valid"');
    return { kind: 'deny', reason: reasonOf(reply.messages) };
  }
  if (reply.type === 'mutation') {
    if (reply.modified === false) return ALLOW;
    if (reply.modified !== true) throw new Error('the guardrail answered a mutation without a boolean "modified"');
    if (!isObject(reply.payload)) throw new Error('the guardrail answered a modification without a "payload" object');
    if (phase === 'request') {
      const { arguments: args } = reply.payload;
      if (!isObject(args)) throw new Error('the guardrail answered modified arguments that are not an object ("payload.arguments")');
      return { kind: 'modify', args };
    }
    return { kind: 'modify', result: resultOf(reply.payload.result, tool) };
  }
  throw new Error('the guardrail answered no "type" of "validation" or "mutation"');
}

/** The denial's words: its messages' `message`s joined, printable and cut; a denial without any says so. */
function reasonOf(messages: unknown): string {
  const texts = Array.isArray(messages)
    ? messages.flatMap((entry) => (isObject(entry) && typeof entry.message === 'string' && entry.message !== '' ? [entry.message] : []))
    : [];
  return texts.length === 0 ? 'denied by the guardrail (no reason given)' : printable(texts.join('; '), MAX_REASON_CHARS);
}

/**
 * A modified result, checked to be one the era can shape: content blocks each with a `type`, text blocks
 * with a `text`, and for a tool service's tool only text blocks (its results are one text block and
 * `structuredContent`, which the output budget relies on).
 */
function resultOf(result: unknown, tool: ToolDefinition): InterceptedResult {
  if (!isObject(result) || !Array.isArray(result.content) || result.content.length === 0)
    throw new Error('the guardrail answered a modified result without a non-empty "payload.result.content" array');
  const forwarded = tool.target.kind === 'mcp';
  for (const block of result.content) {
    if (!isObject(block) || typeof block.type !== 'string') throw new Error('the guardrail answered a content block without a "type"');
    if (block.type === 'text' ? typeof block.text !== 'string' : !forwarded)
      throw new Error('the guardrail answered a content block other than text with a string "text" for a tool service\'s tool');
  }
  if (result.isError !== undefined && typeof result.isError !== 'boolean')
    throw new Error('the guardrail answered a non-boolean "isError"');
  const content = forwarded ? result.content : result.content.map((block) => ({ ...block, _meta: { searchTime: 0 } }));
  return {
    content,
    isError: result.isError === true,
    ...(result.structuredContent !== undefined && { structuredContent: result.structuredContent }),
  } as InterceptedResult;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
