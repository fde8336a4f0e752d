import { errorMessage } from '@toolmesh/protocol';

import { AgentError } from '../../errors/agent-errors';
import type { McpPromptClient } from '../../mcp/host/prompt-client';
import { promptText } from '../../mcp/host/prompt-text';

export const PROMPT_COMMAND_USAGE = '/prompt <server> <name> [key=value ...]  (values with spaces in double quotes: key="two words")';

/**
 * `/prompt <server> <name> [key=value ...]` in `chat`: the prompt's text to send as the user's message,
 * or the line to show instead when it cannot be had (a wrong name or argument, a server error); the
 * chat goes on either way.
 */
export async function promptMessage(
  prompts: McpPromptClient,
  line: string,
  signal?: AbortSignal,
): Promise<{ text: string } | { problem: string }> {
  const [server, name, ...words] = splitWords(line);
  if (server === undefined || name === undefined) return { problem: `usage: ${PROMPT_COMMAND_USAGE}` };
  try {
    return { text: promptText(await prompts.get(server, name, words, signal)) };
  } catch (error) {
    return {
      problem:
        error instanceof AgentError
          ? `${error.message} [${error.code}]`
          : `MCP server "${server}" answered with an error: ${errorMessage(error)}`,
    };
  }
}

/** Words split at spaces; a double-quoted stretch (`key="two words"`) stays in its word, without the quotes. */
function splitWords(line: string): string[] {
  return (line.match(/(?:[^\s"]+|"[^"]*")+/g) ?? []).map((word) => word.replace(/"/g, ''));
}
