import { AgentError, AgentErrorCode } from '../errors/agent-errors';
import type { Tool } from './tool';

/** The agent's tools by name. Names are unique; a second registration of a name is refused. */
export class ToolRegistry {
  private readonly tools = new Map<string, Tool>();

  register(tool: Tool): void {
    if (this.tools.has(tool.name)) throw new AgentError(AgentErrorCode.DuplicateTool, `a tool named "${tool.name}" is already registered`);
    this.tools.set(tool.name, tool);
  }

  get(name: string): Tool | undefined {
    return this.tools.get(name);
  }

  /** Sorted by name, so listings are stable. */
  list(): Tool[] {
    return [...this.tools.values()].sort((a, b) => a.name.localeCompare(b.name));
  }
}
