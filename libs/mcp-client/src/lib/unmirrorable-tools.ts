import { readMcpHeaderBindings } from '@toolmesh/protocol';

/** A tool left out of a server's list, and why. */
export interface DroppedTool {
  readonly name: string;
  readonly problem: string;
}

/**
 * Takes the tools whose `x-mcp-header` annotations break the 2026-07-28 rules out of a `tools/list`
 * result (in place): over HTTP a client must drop them, since it cannot send their `Mcp-Param-*`
 * headers as the server will check them. Done here, before the SDK client sees the page, so that the
 * reason goes to `onDropped` (the agent's warnings) instead of the SDK's console.warn.
 */
export function dropUnmirrorableTools(result: unknown, onDropped: (tool: DroppedTool) => void): void {
  const tools = (result as { tools?: unknown } | null)?.tools;
  if (!Array.isArray(tools)) return;
  const kept = tools.filter((tool: { name?: unknown; inputSchema?: unknown }) => {
    if (typeof tool !== 'object' || tool === null || typeof tool.inputSchema !== 'object' || tool.inputSchema === null) return true;
    const reading = readMcpHeaderBindings(tool.inputSchema as Record<string, unknown>);
    if (reading.ok) return true;
    onDropped({ name: String(tool.name), problem: reading.problem });
    return false;
  });
  if (kept.length !== tools.length) (result as { tools: unknown[] }).tools = kept;
}
