import { errorMessage } from '@toolmesh/protocol';
import { ExternalEventResolver } from '@toolmesh/rewake-bridge';

import { NO_HOOKS, type ToolUseHooks } from '../agent/hooks/tool-use-hooks';
import { ToolExecutor, type ToolExecutorOptions } from '../agent/tool-executor';
import type { McpClientManager, ServerStatus } from '../mcp/client-manager';
import type { SkillCatalogue } from '../skills/skill-catalogue';
import type { ToolDeferral } from '../tools/tool-deferral';
import type { ToolRegistry } from '../tools/tool-registry';

/** The roots each server is offered, and the user's changes to them during the session (mcp/host/client-features.ts). */
export interface ServerRoots {
  rootsOf(server: string): readonly string[];
  /** Whether a live connection was told; false: the server connected without the roots capability. */
  setRoots(server: string, directories: readonly string[]): boolean;
}

/** Something the runtime owns and must close. */
export interface Closeable {
  readonly name: string;
  close(): Promise<void>;
}

/**
 * One agent runtime: its tool registry, the MCP client manager behind the registry's MCP tools, the
 * hooks every tool call of this runtime runs through (the executor takes them from here), the
 * resolver of its external events, and the deferral that decides which tools the model is sent.
 * `close()` closes what it owns in a fixed order, the client manager first (seed §5.1: a hard-coded
 * list, not a scan for markers), and logs a failure and goes on rather than leaving the rest open.
 */
export class AgentRuntime {
  private closing: Promise<void> | undefined;

  constructor(
    readonly tools: ToolRegistry,
    readonly mcp: McpClientManager,
    readonly servers: readonly ServerStatus[],
    private readonly owned: readonly Closeable[],
    private readonly warn: (message: string) => void,
    readonly hooks: ToolUseHooks = NO_HOOKS,
    /** The events the runtime's servers' notifications became (rewake): what WaitForEvent and `watch` wait on. */
    readonly events: ExternalEventResolver = new ExternalEventResolver(),
    /** The servers' roots, where the command offers client features. */
    readonly roots?: ServerRoots,
    /** Which tools are sent to the model and which are deferred behind ToolSearch (SPEC A21); absent: all are sent. */
    readonly deferral?: ToolDeferral,
    /** The skills offered (the servers' and the configured folders'), listed once at start; absent: none. */
    readonly skills?: SkillCatalogue,
  ) {}

  /**
   * The one path of this runtime's tool calls: its tools and its hooks behind the command line's gate.
   * Every command that calls a tool takes its executor from here, so none can leave the hooks out.
   */
  executor(gate: Pick<ToolExecutorOptions, 'cap' | 'approver'>, onEvent?: ToolExecutorOptions['onEvent']): ToolExecutor {
    return new ToolExecutor(this.tools, { ...gate, hooks: this.hooks, onEvent });
  }

  close(): Promise<void> {
    this.closing ??= closeInOrder(this.owned, this.warn);
    return this.closing;
  }
}

export async function closeInOrder(owned: readonly Closeable[], warn: (message: string) => void): Promise<void> {
  for (const item of owned) {
    try {
      await item.close();
    } catch (error) {
      warn(`closing ${item.name} failed: ${errorMessage(error)}`);
    }
  }
}
