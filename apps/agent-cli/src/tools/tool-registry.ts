import { AgentError, AgentErrorCode } from '../errors/agent-errors';
import type { Tool } from './tool';

/** The tools of one source (an MCP server), replaced together, offered only while the source is available. */
interface Group {
  names: readonly string[];
  readonly available: () => boolean;
}

/**
 * The agent's tools by name. Names are unique; a second registration of a name is refused. Tools come
 * one by one (the built-ins) or as a group per MCP server, whose list can change while the agent runs
 * (`list_changed`, a reconnect): a group's new list is staged and applied only at `beginTurn()`, so the
 * tools the model was offered stay the tools it can call until its next turn (SPEC A12), and a group
 * whose source is down is left out of what is offered until it is back (SPEC A11).
 */
export class ToolRegistry {
  private readonly tools = new Map<string, Tool>();
  private readonly groups = new Map<string, Group>();
  /** The latest new list per group, still being fetched; `undefined` keeps the current list. */
  private readonly staged = new Map<string, Promise<readonly Tool[] | undefined>>();

  register(tool: Tool): void {
    this.assertFree([tool.name]);
    this.tools.set(tool.name, tool);
  }

  /** Registers a group's tools at once: all of them or, when a name is taken, none. */
  registerGroup(group: string, tools: readonly Tool[], available: () => boolean): void {
    if (this.groups.has(group)) throw new AgentError(AgentErrorCode.DuplicateTool, `a tool group named "${group}" is already registered`);
    this.assertFree(tools.map((tool) => tool.name));
    for (const tool of tools) this.tools.set(tool.name, tool);
    this.groups.set(group, { names: tools.map((tool) => tool.name), available });
  }

  /** A new list for a registered group, applied at the next `beginTurn()`; a later one replaces it. */
  stage(group: string, update: Promise<readonly Tool[] | undefined>): void {
    if (this.groups.has(group)) this.staged.set(group, update);
  }

  /**
   * The start of a model turn: waits for the lists being fetched, applies them, and returns the tools to
   * offer (sorted by name; those of an unavailable group left out). Nothing changes until the next call.
   */
  async beginTurn(): Promise<Tool[]> {
    const pending = [...this.staged.entries()];
    const lists = await Promise.all(pending.map(([, update]) => update.catch(() => undefined)));
    pending.forEach(([group, update], i) => {
      if (this.staged.get(group) !== update) return; // a newer list came in meanwhile: the next turn's
      this.staged.delete(group);
      const list = lists[i];
      if (list) this.replaceGroup(group, list);
    });
    return this.offered();
  }

  get(name: string): Tool | undefined {
    return this.tools.get(name);
  }

  /** Every tool, sorted by name, so listings are stable. */
  list(): Tool[] {
    return [...this.tools.values()].sort((a, b) => a.name.localeCompare(b.name));
  }

  /** What the model may be offered now: every tool but those withheld and those of a group that is not available. */
  offered(): Tool[] {
    const withheld = new Set([...this.groups.values()].filter((group) => !group.available()).flatMap((group) => group.names));
    return this.list().filter((tool) => !tool.withheld && !withheld.has(tool.name));
  }

  private replaceGroup(name: string, tools: readonly Tool[]): void {
    const group = this.groups.get(name);
    if (!group) return;
    this.assertFree(
      tools.map((tool) => tool.name),
      group.names,
    );
    for (const old of group.names) this.tools.delete(old);
    for (const tool of tools) this.tools.set(tool.name, tool);
    group.names = tools.map((tool) => tool.name);
  }

  /** Refuses names already registered (but those in `replacing`) or given twice. */
  private assertFree(names: readonly string[], replacing: readonly string[] = []): void {
    const seen = new Set<string>();
    for (const name of names) {
      if ((this.tools.has(name) && !replacing.includes(name)) || seen.has(name))
        throw new AgentError(AgentErrorCode.DuplicateTool, `a tool named "${name}" is already registered`);
      seen.add(name);
    }
  }
}
