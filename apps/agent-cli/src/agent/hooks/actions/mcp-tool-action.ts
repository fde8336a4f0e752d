import type { CallToolResult, McpClient } from '@toolmesh/mcp-client';

import type { McpToolAction } from '../../../config/hook-file';
import { type ActionOutcome, parseJsonReply } from '../hook-reply';
import { type HookEventContext, renderTemplate } from '../hook-template';
import { safeDescription } from './safe-description';

/** Where the action finds a server's client at call time: the runtime's client manager. */
export interface McpClientSource {
  client(name: string): McpClient | undefined;
}

/**
 * Runs an `mcp_tool` action (seed §7.1, McpActionExecutor): finds the server when the hook fires, renders
 * the arguments, calls the tool directly on its client. The call does not go through the tool executor
 * or the approval gate: hooks are the operator's configuration, not the model's requests.
 */
export class McpToolActionRunner {
  constructor(private readonly servers: McpClientSource) {}

  async run(action: McpToolAction, context: HookEventContext, signal: AbortSignal): Promise<ActionOutcome> {
    const client = this.servers.client(action.server);
    if (!client?.isConnected) return { failure: `MCP server "${action.server}" is not configured or not connected` };
    let result: CallToolResult;
    try {
      result = await client.callTool(action.tool, renderTemplate(action.args, context) as Record<string, unknown>, signal);
    } catch (error) {
      return { failure: `calling "${action.tool}" failed: ${safeDescription(error)}` };
    }
    if (result.isError) return { failure: `"${action.tool}" returned an error result` };
    return replyOf(result);
  }
}

/** structuredContent when the tool gives one; else its text, when that is meant as a JSON object. */
function replyOf(result: CallToolResult): ActionOutcome {
  if (typeof result.structuredContent === 'object' && result.structuredContent !== null) return { reply: result.structuredContent };
  const text = (result.content ?? []).flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('\n');
  // Plain text is what side-effect-only tools answer; text opening a JSON object must be one.
  return text.trimStart().startsWith('{') ? parseJsonReply(text, 'text') : { reply: undefined };
}
