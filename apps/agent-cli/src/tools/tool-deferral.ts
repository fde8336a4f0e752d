import { ToolSearchIndex } from '@toolmesh/protocol';

import type { Tool } from './tool';
import type { ToolRegistry } from './tool-registry';

interface ToolDeferralOptions {
  /** `llm.toolDefinitionBudget`: estimated tokens the deferrable tools' definitions may take before they are deferred. */
  readonly budgetTokens: number;
  /** Whether a tool may be left out: an MCP server's tool, unless its server is marked `alwaysLoad`. */
  readonly deferrable: (tool: Tool) => boolean;
  /** The tool that finds deferred tools: sent only while some are deferred. */
  readonly searchToolName: string;
}

/** Which of a turn's tools go to the model and which are left out, to be found with the search tool. */
interface ToolPlan {
  readonly sent: readonly Tool[];
  readonly deferred: readonly Tool[];
}

/**
 * Deferred tools (SPEC A21): when the definitions of the deferrable tools would take more than the
 * budget, they are left out of the model's requests; the search tool finds them, and a tool it found (or
 * one the model called by name anyway) is sent from the next turn on, for the rest of the runtime's life.
 * Only what is sent changes: the registry, the executor, the approval gate and the hooks see every tool
 * as before, so a deferred tool the model names still runs, through the same gate. The index follows the
 * registry's tools (ToolSearchIndex.sync), so a `list_changed` re-indexes only what changed.
 */
export class ToolDeferral {
  private readonly index = new ToolSearchIndex<Tool>();
  private readonly loaded = new Set<string>();
  private readonly tokens = new WeakMap<Tool, number>();
  private lastDeferred: readonly Tool[] = [];

  constructor(
    private readonly registry: ToolRegistry,
    private readonly options: ToolDeferralOptions,
  ) {}

  /** The tools to send this turn out of those offered, and those left out. */
  plan(offered: readonly Tool[]): ToolPlan {
    const deferrable = offered.filter(this.options.deferrable);
    const total = deferrable.reduce((sum, tool) => sum + this.definitionTokens(tool), 0);
    const plan =
      total <= this.options.budgetTokens
        ? { sent: offered.filter((tool) => tool.name !== this.options.searchToolName), deferred: [] }
        : {
            sent: offered.filter((tool) => !this.options.deferrable(tool) || this.loaded.has(tool.name)),
            deferred: deferrable.filter((tool) => !this.loaded.has(tool.name)),
          };
    this.lastDeferred = plan.deferred;
    return plan;
  }

  /** The deferrable tools that best match `query`; each is sent from the next turn on. */
  find(query: string, limit: number): readonly Tool[] {
    this.index.sync(this.registry.offered().filter(this.options.deferrable));
    const found = this.index.search(query, limit);
    for (const tool of found) this.loaded.add(tool.name);
    return found;
  }

  /** A tool the model called: when it was deferred, it is sent from now on. */
  markCalled(name: string): void {
    const tool = this.registry.get(name);
    if (tool && this.options.deferrable(tool)) this.loaded.add(name);
  }

  /** How many tools the last plan left out: what the search tool's description tells the model. */
  get deferredCount(): number {
    return this.lastDeferred.length;
  }

  /** A tool's definition as the model gets it, in tokens estimated as characters / 4. */
  private definitionTokens(tool: Tool): number {
    let tokens = this.tokens.get(tool);
    if (tokens === undefined) {
      tokens = Math.ceil(definitionChars(tool) / 4);
      this.tokens.set(tool, tokens);
    }
    return tokens;
  }
}

/** Characters of a tool's definition in a chat-completions request (agent-loop.ts sends this shape). */
function definitionChars(tool: Tool): number {
  return JSON.stringify({ type: 'function', function: { name: tool.name, description: tool.description, parameters: tool.inputSchema } })
    .length;
}
