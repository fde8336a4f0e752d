import type { McpClient, Tool as McpToolDefinition } from '@toolmesh/protocol';
import { errorMessage } from '@toolmesh/protocol';
import { ArgumentValidator } from '../tools/argument-validator';
import { errorResult, type SideEffects, type Tool, type ToolResult } from '../tools/tool';

/** `mcp__<server>__<tool>`: the server name keeps tools of different servers apart. */
export function mcpToolName(server: string, tool: string): string {
  return `mcp__${server}__${tool}`;
}

/**
 * A tool of an MCP server, as the agent's own `Tool`. It advertises the server's input schema untouched,
 * carries the side effects resolved at registration, and never throws: a disconnected server, an
 * `isError` result and any exception all come back as error results.
 */
export class McpTool implements Tool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: Readonly<Record<string, unknown>>;
  private readonly validator: ArgumentValidator;

  constructor(
    private readonly client: McpClient,
    private readonly definition: McpToolDefinition,
    readonly sideEffects: SideEffects,
  ) {
    this.name = mcpToolName(client.serverName, definition.name);
    this.description = definition.description ?? definition.title ?? '';
    this.inputSchema = definition.inputSchema;
    this.validator = new ArgumentValidator(definition.inputSchema);
  }

  get serverName(): string {
    return this.client.serverName;
  }

  checkArguments(args: Record<string, unknown>): string | undefined {
    return this.validator.check(args);
  }

  async execute(args: Record<string, unknown>, signal?: AbortSignal): Promise<ToolResult> {
    if (!this.client.isConnected) return errorResult(`MCP server "${this.client.serverName}" is not connected`);
    const problem = this.checkArguments(args);
    if (problem) return errorResult(`invalid arguments for ${this.name}: ${problem}`);
    try {
      const result = await this.client.callTool(this.definition.name, args, signal);
      return { isError: result.isError === true, content: result.content ?? [], structuredContent: result.structuredContent };
    } catch (error) {
      return errorResult(`${this.name} failed: ${errorMessage(error)}`);
    }
  }
}
