import type { GetPromptResult, Prompt } from '@toolmesh/mcp-client';

import { AgentError, AgentErrorCode } from '../../errors/agent-errors';

type PromptContent = GetPromptResult['messages'][number]['content'];

/** One content block as text: text as it is, an embedded text resource with its URI, anything else as a note. */
function contentText(content: PromptContent): string {
  switch (content.type) {
    case 'text':
      return content.text;
    case 'resource':
      return 'text' in content.resource
        ? `[resource ${content.resource.uri}]\n${content.resource.text}`
        : `[binary resource ${content.resource.uri} (${content.resource.mimeType ?? 'no MIME type'})]`;
    case 'resource_link':
      return `[resource link ${content.uri}${content.name ? ` (${content.name})` : ''}]`;
    default:
      return `[${content.type} content (${'mimeType' in content ? content.mimeType : 'no MIME type'})]`;
  }
}

/**
 * A prompt's messages as one text: what `prompts get` prints and what `/prompt` sends as the user's
 * message. A prompt of user messages only is their text; with other roles each message is headed by
 * its role, so the model sees who said what.
 */
export function promptText(result: GetPromptResult): string {
  const labelled = result.messages.some((m) => m.role !== 'user');
  return result.messages.map((m) => (labelled ? `[${m.role}]\n${contentText(m.content)}` : contentText(m.content))).join('\n\n');
}

/**
 * `key=value` words as a prompt's arguments, checked against its definition: every word has a `=`,
 * no name twice, no name the prompt does not take, and every required argument given.
 */
export function promptArguments(prompt: Prompt, words: readonly string[]): Record<string, string> {
  const usage = (problem: string) => {
    const names = (prompt.arguments ?? []).map((a) => `${a.name}=…${a.required ? ' (required)' : ''}`).join(' ') || 'no arguments';
    return new AgentError(AgentErrorCode.InvalidPromptArguments, `${problem}; prompt "${prompt.name}" takes ${names}`);
  };
  const known = new Set((prompt.arguments ?? []).map((a) => a.name));
  const args: Record<string, string> = {};
  for (const word of words) {
    const at = word.indexOf('=');
    if (at <= 0) throw usage(`"${word}" is not key=value`);
    const [key, value] = [word.slice(0, at), word.slice(at + 1)];
    if (!known.has(key)) throw usage(`"${key}" is not an argument of this prompt`);
    if (Object.hasOwn(args, key)) throw usage(`"${key}" is given twice`);
    args[key] = value;
  }
  const missing = (prompt.arguments ?? []).filter((a) => a.required && !Object.hasOwn(args, a.name)).map((a) => a.name);
  if (missing.length > 0) throw usage(`missing the required argument(s) ${missing.join(', ')}`);
  return args;
}
