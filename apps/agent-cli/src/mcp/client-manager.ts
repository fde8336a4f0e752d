import { type McpClient } from '@toolmesh/mcp-client';
import {
  type CompiledSchema,
  errorMessage,
  McpNotification,
  NotificationFanout,
  type NotificationListener,
  type NotificationSource,
  printableName,
  SchemaCompiler,
  SchemaError,
  type ServerNotification,
} from '@toolmesh/protocol';

import { AgentError, AgentErrorCode } from '../errors/agent-errors';
import type { ToolRegistry } from '../tools/tool-registry';
import { resolveSideEffects } from './annotation-trust';
import type { McpClientFactory } from './client-factory';
import { McpTool } from './mcp-tool';
import type { ToolPins } from './pins/tool-pins';
import { assertServerName, DEFAULT_MAX_CALL_TIMEOUT_MS, type McpServerConfig } from './server-config';
import { ServerConnection } from './server-connection';
import type { BackgroundTasks } from './tasks/background-tasks';
import { toolFilterTest } from './tool-filter';

/** Covers spawning a server process, the one step no request timeout bounds (seed §5.3). */
const STARTUP_SPAWN_ALLOWANCE_MS = 30_000;

export interface ServerStatus {
  readonly name: string;
  readonly transport: McpServerConfig['transport'];
  /** `down`: the connection was lost and is being restored; its tools are not offered meanwhile. */
  readonly state: 'connected' | 'down' | 'failed';
  /** Time from the start of startup until this server connected or failed. */
  readonly elapsedMs: number;
  readonly toolCount: number;
  readonly error?: string;
  readonly serverInfo?: { readonly name: string; readonly version: string };
  /** The protocol version spoken, once connected: `2026-07-28` for the modern era, else the `initialize` one. */
  readonly protocolVersion?: string;
}

export type StartupProgress = (
  event: { kind: 'connecting'; servers: readonly string[] } | { kind: 'settled'; status: ServerStatus },
) => void;

export interface Logger {
  warn(message: string): void;
  /** Progress of a running tool call (`<tool>: 2/5 message`); without it no progress token is sent. */
  progress?(line: string): void;
}

/**
 * Owns the MCP connections of one agent runtime: connects them all in parallel under one deadline,
 * registers their tools, keeps them connected (a lost server is reconnected with backoff and its tools
 * withheld until it is back), fans their notifications out, and closes them. Created by the runtime
 * factory and closed by the runtime (seed §5): never shared between runtimes.
 */
export class McpClientManager implements NotificationSource {
  private readonly connections = new Map<string, ServerConnection>();
  /** One entry per configured server, duplicates included, in configuration order. */
  private readonly statuses = new Map<McpServerConfig, ServerStatus>();
  private readonly notifications: NotificationFanout;
  /** Connections given up at the deadline, still closing; `close()` waits for them. */
  private readonly abandoned = new Set<Promise<void>>();
  private readonly configs: McpServerConfig[] = [];
  /** Where the servers' tools were registered; their new lists are staged there. */
  private registry: ToolRegistry | undefined;
  /** Where calls that became tasks are followed (`followTasks`); absent: no call is made a task. */
  private background: BackgroundTasks | undefined;

  constructor(
    private readonly factory: McpClientFactory,
    private readonly log: Logger,
    private readonly spawnAllowanceMs = STARTUP_SPAWN_ALLOWANCE_MS,
    /** The user's approved tool definitions; absent: every definition is used as the server lists it. */
    private readonly pins?: ToolPins,
  ) {
    this.notifications = new NotificationFanout((error, event) =>
      log.warn(`a notification listener failed on a notification from "${event.server}": ${errorMessage(error)}`),
    );
  }

  /** From now on, a call of a tool that may be a task is made one and followed by `background` (SPEC A24). */
  followTasks(background: BackgroundTasks): void {
    this.background = background;
  }

  /** The tasks the runtime's calls became, when they are followed. */
  get backgroundTasks(): BackgroundTasks | undefined {
    return this.background;
  }

  addNotificationListener(listener: NotificationListener): () => void {
    return this.notifications.addNotificationListener(listener);
  }

  /**
   * max(request timeouts) + the spawn allowance, or a longer `startupTimeoutMs` a server was given: adding
   * servers does not lengthen it. A server with `startupTimeoutMs` is given up at its own.
   */
  startupDeadlineMs(configs: readonly McpServerConfig[]): number {
    return Math.max(
      Math.max(0, ...configs.map((c) => c.requestTimeoutMs)) + this.spawnAllowanceMs,
      ...configs.map((c) => c.startupTimeoutMs ?? 0),
    );
  }

  /**
   * Connects every server at once and returns when all have settled or the deadline passed, whichever
   * is first. A server that fails or misses the deadline is reported and left out; the rest are used.
   */
  async connectAll(configs: readonly McpServerConfig[], onProgress: StartupProgress = () => undefined): Promise<ServerStatus[]> {
    const deadlineMs = this.startupDeadlineMs(configs);
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<'given-up'>((resolve) => {
      timer = setTimeout(() => resolve('given-up'), deadlineMs);
    });
    const batch: Batch = { started: Date.now(), deadlineMs, over: false };
    this.configs.push(...configs);
    onProgress({ kind: 'connecting', servers: configs.map((c) => c.name) });
    const settle = (config: McpServerConfig, status: ServerStatus) => {
      this.statuses.set(config, status);
      onProgress({ kind: 'settled', status });
    };

    const attempts: Array<Promise<void>> = [];
    const unexpected: unknown[] = [];
    const names = new Set(this.connections.keys());
    for (const config of configs) {
      if (names.has(config.name)) {
        // The first server of a name wins; a second one is a failure, never a replacement.
        settle(
          config,
          failed(
            config,
            batch,
            new AgentError(AgentErrorCode.DuplicateServer, `a server named "${config.name}" is already configured; the first one is used`)
              .message,
          ),
        );
        continue;
      }
      names.add(config.name);
      attempts.push(this.connectOne(config, batch, settle).catch((error: unknown) => void unexpected.push(error)));
    }
    await Promise.race([Promise.all(attempts), deadline]);
    clearTimeout(timer);
    batch.over = true;
    // connectOne turns every server failure into a status; a rejection here is a bug (or a failing
    // progress callback) and must not be swallowed: the runtime factory then closes what was opened.
    if (unexpected.length > 0) throw unexpected[0];

    return configs.map((config) => {
      const status = this.statuses.get(config);
      if (status) return status;
      const late = failed(config, batch, `did not connect within the startup deadline of ${deadlineMs} ms`);
      settle(config, late);
      return late;
    });
  }

  /** Lists each connected server's tools and registers them, resolving trust once per tool. */
  async registerAllTools(registry: ToolRegistry): Promise<void> {
    this.registry = registry;
    await Promise.all(
      [...this.connections.values()].map(async (connection) => {
        const { config } = connection;
        try {
          assertServerName(config.name);
          const tools = await this.listTools(connection);
          registry.registerGroup(config.name, tools, () => connection.isConnected);
          this.updateStatus(config, { toolCount: tools.length });
        } catch (error) {
          this.connections.delete(config.name);
          this.updateStatus(config, { state: 'failed', toolCount: 0, error: `could not list its tools: ${errorMessage(error)}` });
          await connection.close();
        }
      }),
    );
  }

  /** One entry per configured server, in configuration order, as it is now. */
  get status(): ServerStatus[] {
    return this.configs.flatMap((config) => this.statuses.get(config) ?? []);
  }

  /** The server's connected client, or undefined when it is not configured, failed or down. */
  client(name: string): McpClient | undefined {
    return this.connections.get(name)?.current;
  }

  /** Closes every connection; a failing close is logged and the others still close. */
  async close(): Promise<void> {
    const closing = [...this.connections.values()].map((connection) => connection.close());
    this.connections.clear();
    await Promise.all([...closing, ...this.abandoned]);
  }

  private async connectOne(
    config: McpServerConfig,
    batch: Batch,
    settle: (config: McpServerConfig, status: ServerStatus) => void,
  ): Promise<void> {
    let connection: ServerConnection;
    try {
      assertServerName(config.name);
      connection = new ServerConnection(config, {
        factory: this.factory,
        warn: (message) => this.log.warn(message),
        publish: (event) => this.onNotification(connection, event),
        onState: (changed) => this.onState(changed),
        onReconnected: (changed) => this.refresh(changed),
        reconnectLimitMs: config.startupTimeoutMs ?? batch.deadlineMs,
      });
      const limit =
        config.startupTimeoutMs === undefined
          ? { ms: batch.deadlineMs, text: `the startup deadline of ${batch.deadlineMs} ms` }
          : { ms: config.startupTimeoutMs, text: `its startupTimeoutMs of ${config.startupTimeoutMs} ms` };
      await connection.start(limit.ms - (Date.now() - batch.started), limit.text);
    } catch (error) {
      if (!batch.over) settle(config, failed(config, batch, errorMessage(error)));
      return;
    }
    if (batch.over) {
      // Connected after the caller was told it failed: closed, never registered.
      this.abandon(connection);
      return;
    }
    this.connections.set(config.name, connection);
    const info = connection.current?.serverInfo;
    const protocolVersion = connection.current?.protocolVersion;
    settle(config, {
      name: config.name,
      transport: config.transport,
      state: 'connected',
      elapsedMs: Date.now() - batch.started,
      toolCount: 0,
      ...(info ? { serverInfo: { name: info.name, version: info.version } } : {}),
      ...(protocolVersion ? { protocolVersion } : {}),
    });
  }

  /**
   * The server's tools as the agent's: those its entry's `tools` filter lets through (the others are never
   * registered, so never seen and never called), trust resolved once per tool, schemas compiled (a tool
   * whose schema cannot be used is skipped), and a name the server lists twice kept once, so that no tool
   * is left registered that cannot be called. Each is checked against the user's pins: a changed
   * definition not approved is registered withheld (never offered, its calls refused) until approved.
   */
  private async listTools(connection: ServerConnection): Promise<McpTool[]> {
    const { config } = connection;
    const client = connection.current;
    if (!client) throw new Error(connection.downReason);
    const allowed = toolFilterTest(config.tools);
    const definitions = (await client.listTools()).filter((definition) => allowed(definition.name));
    // One compiler per tool list: its compiled schemas are released with the list (SPEC N5).
    const schemas = new SchemaCompiler();
    const usable = new Map<string, { definition: (typeof definitions)[number]; inputValidator: CompiledSchema }>();
    for (const definition of definitions) {
      if (usable.has(definition.name)) {
        this.log.warn(`MCP server "${config.name}": tool "${printableName(definition.name)}" is listed twice; the first is used`);
        continue;
      }
      try {
        usable.set(definition.name, { definition, inputValidator: schemas.compile(definition.inputSchema) });
      } catch (error) {
        if (!(error instanceof SchemaError)) throw error;
        // The name is the server's: cut and escaped, so no control character reaches the terminal raw.
        this.log.warn(
          `MCP server "${config.name}": tool "${printableName(definition.name)}" skipped, its inputSchema cannot be used (${error.code}): ${error.message}`,
        );
      }
    }
    const pins = await this.pins?.check(
      config,
      [...usable.values()].map((tool) => tool.definition),
    );
    return [...usable.values()].map(
      ({ definition, inputValidator }) =>
        new McpTool(
          connection,
          definition,
          resolveSideEffects(definition, config.annotationTrust),
          inputValidator,
          this.progressFor(config),
          pins?.get(definition.name),
          this.background,
        ),
    );
  }

  private progressFor(config: McpServerConfig): ConstructorParameters<typeof McpTool>[4] {
    const log = this.log;
    if (!log.progress) return undefined;
    return { show: (line) => log.progress?.(line), maxCallTimeoutMs: config.maxCallTimeoutMs ?? DEFAULT_MAX_CALL_TIMEOUT_MS };
  }

  /** Lists the server's tools again; the new list reaches the registry at the next turn boundary. */
  private refresh(connection: ServerConnection): void {
    if (!this.registry || this.connections.get(connection.serverName) !== connection) return;
    const update = this.listTools(connection).then(
      (tools) => {
        this.updateStatus(connection.config, { toolCount: tools.length });
        return tools;
      },
      (error: unknown) => {
        this.log.warn(
          `MCP server "${connection.serverName}": could not list its tools again, keeping the previous list: ${errorMessage(error)}`,
        );
        return undefined;
      },
    );
    this.registry.stage(connection.serverName, update);
  }

  /**
   * Every notification goes to the listeners; `tools/list_changed` also lists the server's tools again
   * (SPEC A12), for the registry to apply at the next turn boundary. Prompts and resources are listed
   * when asked for (the host's clients), so their list_changed needs nothing kept up to date here.
   */
  private onNotification(connection: ServerConnection, event: ServerNotification): void {
    if (event.notification.method === McpNotification.ToolsListChanged && connection.isConnected) this.refresh(connection);
    this.notifications.publish(event);
  }

  private onState(connection: ServerConnection): void {
    const state = connection.state === 'closed' ? 'failed' : connection.state;
    this.updateStatus(connection.config, { state, error: state === 'connected' ? undefined : connection.detail });
  }

  private updateStatus(config: McpServerConfig, change: Partial<ServerStatus>): void {
    const current = this.statuses.get(config);
    if (current) this.statuses.set(config, { ...current, ...change });
  }

  private abandon(connection: ServerConnection): void {
    const closing = connection.close().finally(() => this.abandoned.delete(closing));
    this.abandoned.add(closing);
  }
}

interface Batch {
  readonly started: number;
  readonly deadlineMs: number;
  /** Set once `connectAll` has returned: anything settling later is too late. */
  over: boolean;
}

function failed(config: McpServerConfig, batch: Batch, error: string): ServerStatus {
  return { name: config.name, transport: config.transport, state: 'failed', elapsedMs: Date.now() - batch.started, toolCount: 0, error };
}
