/**
 * Wires an agent runtime: what one configuration gives every command, whatever the command (the tool
 * registry with the built-ins and the servers' tools, the MCP client manager, rewake, the configured hooks),
 * owned by the runtime and closed with it. The agent CLI wires in three places, each thing once: here;
 * cli/run-cli.ts, the process's choices (configuration file, approval gate, and the production
 * dependencies this factory takes); cli/agent-session.ts, one `run` or `chat` session over a runtime.
 */
import { Agent } from 'undici';

import { HttpActionRunner } from '../agent/hooks/actions/http-action';
import { McpToolActionRunner } from '../agent/hooks/actions/mcp-tool-action';
import { ConfiguredHooks } from '../agent/hooks/configured-hooks';
import { NO_HOOKS, type ToolUseHooks } from '../agent/hooks/tool-use-hooks';
import { DEFAULT_LLM_CONFIG } from '../config/llm-config';
import type { AgentConfig } from '../config/load-config';
import type { McpClientFactory } from '../mcp/client-factory';
import { type Logger, McpClientManager, type StartupProgress } from '../mcp/client-manager';
import { serversOffering } from '../mcp/host/connected-servers';
import { McpResourceClient } from '../mcp/host/resource-client';
import { createResourceTools } from '../mcp/host/resource-tools';
import { McpTool } from '../mcp/mcp-tool';
import type { ToolPins } from '../mcp/pins/tool-pins';
import { BackgroundTasks } from '../mcp/tasks/background-tasks';
import { SkillCatalogue } from '../skills/skill-catalogue';
import { createSkillTools } from '../skills/skill-tools';
import { createBuiltinTools } from '../tools/builtin/builtin-tools';
import { TOOL_SEARCH_NAME, ToolSearchTool } from '../tools/builtin/tool-search-tool';
import type { Workspace } from '../tools/builtin/workspace';
import { ToolDeferral } from '../tools/tool-deferral';
import { ToolRegistry } from '../tools/tool-registry';
import { AgentRuntime, type Closeable, closeInOrder, type ServerRoots } from './agent-runtime';
import { createRewake } from './rewake';

export interface RuntimeDependencies {
  readonly clientFactory: McpClientFactory;
  readonly log: Logger;
  readonly onProgress?: StartupProgress;
  /** Tests shorten the startup spawn allowance; production keeps the default. */
  readonly spawnAllowanceMs?: number;
  /** Where the built-in tools resolve relative paths and run commands: the CLI's working directory. */
  readonly workingDirectory: string;
  /** Where the built-in file tools go without asking, and where never; default: the working directory, nothing sealed. */
  readonly workspace?: Workspace;
  /** The user's approved tool definitions, checked at every tool list; absent: none checked. */
  readonly pins?: ToolPins;
  /** The servers' roots, when the client factory offers them (the features it was given). */
  readonly roots?: ServerRoots;
}

/**
 * Creates an agent runtime: the built-in tools are registered, the client manager is made here with the
 * rewake bridge listening to it, its servers connected and their tools registered next to the built-ins,
 * and the runtime that owns it is returned, with the configured hooks (which find their MCP servers through that manager at call time). If
 * anything fails before the runtime exists, the factory closes what it made, because nobody else owns it
 * yet (seed §5.2).
 */
export async function createAgentRuntime(config: AgentConfig, deps: RuntimeDependencies): Promise<AgentRuntime> {
  const manager = new McpClientManager(deps.clientFactory, deps.log, deps.spawnAllowanceMs, deps.pins);
  const rewake = createRewake(manager, config.rewake, (message) => deps.log.warn(message));
  // Calls that become tasks are followed here, their ends told on the rewake path (SPEC A24).
  const background = new BackgroundTasks(rewake.events, (message) => deps.log.warn(message));
  const stopListening = background.listen(manager);
  manager.followTasks(background);
  // The manager first: once its servers are stopped no notification can arrive at a closed resolver.
  const owned: Closeable[] = [
    {
      name: 'the background tasks',
      close: async () => {
        stopListening();
        background.close();
      },
    },
    { name: 'the MCP client manager', close: () => manager.close() },
    rewake.closeable,
    { name: 'the MCP client factory', close: () => deps.clientFactory.close() },
  ];
  try {
    const registry = new ToolRegistry();
    const builtinContext = { workingDirectory: deps.workingDirectory, workspace: deps.workspace };
    for (const tool of createBuiltinTools(builtinContext, rewake.events)) registry.register(tool);
    const deferral = createDeferral(config, registry);
    registry.register(new ToolSearchTool(builtinContext, deferral));
    await manager.connectAll(config.servers, deps.onProgress);
    await manager.registerAllTools(registry);
    registerResourceTools(registry, manager, deps.workingDirectory);
    const skills = await registerSkillTools(registry, manager, config, deps);
    const hooks = createHooks(config, manager, owned, deps);
    return new AgentRuntime(
      registry,
      manager,
      manager.status,
      owned,
      (message) => deps.log.warn(message),
      hooks,
      rewake.events,
      deps.roots,
      deferral,
      skills,
    );
  } catch (error) {
    await closeInOrder(owned, (message) => deps.log.warn(message));
    throw error;
  }
}

/** The MCP servers' tools may be deferred behind ToolSearch, but those of servers marked `alwaysLoad`. */
function createDeferral(config: AgentConfig, registry: ToolRegistry): ToolDeferral {
  const alwaysLoad = new Set(config.servers.filter((server) => server.alwaysLoad).map((server) => server.name));
  return new ToolDeferral(registry, {
    budgetTokens: (config.llm ?? DEFAULT_LLM_CONFIG).toolDefinitionBudget,
    deferrable: (tool) => tool instanceof McpTool && !alwaysLoad.has(tool.serverName),
    searchToolName: TOOL_SEARCH_NAME,
  });
}

/** ListMcpResources and ReadMcpResource, when a connected server offers resources: without one they could only fail. */
function registerResourceTools(registry: ToolRegistry, manager: McpClientManager, workingDirectory: string): void {
  if (serversOffering(manager, 'resources').length === 0) return;
  for (const tool of createResourceTools({ workingDirectory }, new McpResourceClient(manager))) registry.register(tool);
}

/**
 * LoadSkill and ReadSkillFile, when a connected server or a configured folder offers a skill: the servers'
 * `skills/list` and the folders' front matter are read now, each skill's body only when the model loads it.
 * What could not be listed is a warning; the other skills are still offered.
 */
async function registerSkillTools(
  registry: ToolRegistry,
  manager: McpClientManager,
  config: AgentConfig,
  deps: RuntimeDependencies,
): Promise<SkillCatalogue> {
  const catalogue = await SkillCatalogue.create(manager, config.skillFolders ?? []);
  for (const problem of catalogue.problems) deps.log.warn(`skills: ${problem}`);
  if (catalogue.skills.length > 0)
    for (const tool of createSkillTools({ workingDirectory: deps.workingDirectory }, catalogue)) registry.register(tool);
  return catalogue;
}

/** The hook files' hooks, or none; with hooks, an HTTP pool of their own, closed with the runtime. */
function createHooks(config: AgentConfig, manager: McpClientManager, owned: Closeable[], deps: RuntimeDependencies): ToolUseHooks {
  const definitions = (config.hooks ?? []).flatMap((file) => file.hooks);
  if (definitions.length === 0) return NO_HOOKS;
  const httpPool = new Agent({ keepAliveTimeout: 10_000, connections: 4 });
  owned.push({ name: "the hooks' HTTP pool", close: () => httpPool.close() });
  return new ConfiguredHooks(definitions, { mcp: new McpToolActionRunner(manager), http: new HttpActionRunner(httpPool) }, deps.log);
}
