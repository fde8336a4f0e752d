import type { CallToolResult } from '@toolmesh/mcp-client';

import type { ToolResult } from '../tools/tool';

/** An MCP server's tool result as the agent's own: a call's, at once or as a task's end. */
export function toolResultOf(result: CallToolResult): ToolResult {
  return { isError: result.isError === true, content: result.content ?? [], structuredContent: result.structuredContent };
}
