import {
  errorMessage,
  type CompiledSchema,
  type McpClient,
  NotificationFanout,
  printableName,
  type NotificationListener,
  type NotificationSource,
  SchemaCompiler,
  SchemaError,
} from '@toolmesh/protocol';
import { AgentError, AgentErrorCode } from '../errors/agent-errors';
import type { ToolRegistry } from '../tools/tool-registry';
import { resolveSideEffects } from './annotation-trust';
import type { McpClientFactory } from './client-factory';
import { McpTool } from './mcp-tool';
import { assertServerName, type McpServerConfig } from './server-config';

/** Covers spawning a server process, the one step no request timeout bounds (seed §5.3). */
export const STARTUP_SPAWN_ALLOWANCE_MS = 30_000;

export interface ServerStatus {
  readonly name: string;
  readonly transport: McpServerConfig['transport'];
  readonly state: 'connected' | 'failed';
  /** Time from the start of startup until this server connected or failed. */
  readonly elapsedMs: number;
  readonly toolCount: number;
  readonly error?: string;
  readonly serverInfo?: { readonly name: string; readonly version: string };
}

export type StartupProgress = (event: { kind: 'connecting'; servers: readonly string[] } | { kind: 'settled'; status: ServerStatus }) => void;

export interface Logger {
  warn(message: string): void;
}

interface Connected {
  readonly config: McpServerConfig;
  readonly client: McpClient;
  readonly elapsedMs: number;
}

/**
 * Owns the MCP clients of one agent runtime: connects them all in parallel under one deadline,
 * registers their tools, fans their notifications out, and closes them. Created by the runtime factory
 * and closed by the runtime (seed §5): never shared between runtimes.
 */
export class McpClientManager implements NotificationSource {
  private readonly clients = new Map<string, Connected>();
  /** One entry per configured server, duplicates included, in configuration order. */
  private readonly statuses = new Map<McpServerConfig, ServerStatus>();
  private readonly notifications: NotificationFanout;
  /** Closes of clients given up at the deadline, still running; `close()` waits for them. */
  private readonly abandoned = new Set<Promise<void>>();
  private readonly configs: McpServerConfig[] = [];

  constructor(
    private readonly factory: McpClientFactory,
    private readonly log: Logger,
    private readonly spawnAllowanceMs = STARTUP_SPAWN_ALLOWANCE_MS,
  ) {
    this.notifications = new NotificationFanout((error, event) => log.warn(`a notification listener failed on a notification from "${event.server}": ${errorMessage(error)}`));
  }

  addNotificationListener(listener: NotificationListener): () => void {
    return this.notifications.addNotificationListener(listener);
  }

  /** max(request timeouts) + the spawn allowance: adding servers does not lengthen it. */
  startupDeadlineMs(configs: readonly McpServerConfig[]): number {
    return Math.max(0, ...configs.map((c) => c.requestTimeoutMs)) + this.spawnAllowanceMs;
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
    const batch: Batch = { started: Date.now(), deadlineMs, deadline, over: false };
    this.configs.push(...configs);
    onProgress({ kind: 'connecting', servers: configs.map((c) => c.name) });
    const settle = (config: McpServerConfig, status: ServerStatus) => {
      this.statuses.set(config, status);
      onProgress({ kind: 'settled', status });
    };

    const attempts: Array<Promise<void>> = [];
    const unexpected: unknown[] = [];
    const names = new Set(this.clients.keys());
    for (const config of configs) {
      if (names.has(config.name)) {
        // The first server of a name wins; a second one is a failure, never a replacement.
        settle(config, failed(config, batch, new AgentError(AgentErrorCode.DuplicateServer, `a server named "${config.name}" is already configured; the first one is used`).message));
        continue;
      }
      names.add(config.name);
      attempts.push(this.connectOne(config, batch, settle).catch((error: unknown) => void unexpected.push(error)));
    }
    await Promise.race([Promise.all(attempts), batch.deadline]);
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
    await Promise.all(
      [...this.clients.values()].map(async ({ config, client, elapsedMs }) => {
        try {
          assertServerName(config.name);
          const definitions = await client.listTools();
          // One compiler per tool list: its compiled schemas are released with the list (SPEC N5).
          const schemas = new SchemaCompiler();
          let registered = 0;
          for (const definition of definitions) {
            let inputValidator: CompiledSchema;
            try {
              inputValidator = schemas.compile(definition.inputSchema);
            } catch (error) {
              if (!(error instanceof SchemaError)) throw error;
              // The name is the server's: cut and escaped, so no control character reaches the terminal raw.
              this.log.warn(`MCP server "${config.name}": tool "${printableName(definition.name)}" skipped, its inputSchema cannot be used (${error.code}): ${error.message}`);
              continue;
            }
            registry.register(new McpTool(client, definition, resolveSideEffects(definition.annotations, config.annotationTrust), inputValidator));
            registered += 1;
          }
          this.updateStatus(config, { toolCount: registered, elapsedMs });
        } catch (error) {
          this.clients.delete(config.name);
          this.updateStatus(config, { state: 'failed', toolCount: 0, error: `could not list its tools: ${errorMessage(error)}` });
          await this.closeClient(config.name, client);
        }
      }),
    );
  }

  /** One entry per configured server, in configuration order. */
  get status(): ServerStatus[] {
    return this.configs.flatMap((config) => this.statuses.get(config) ?? []);
  }

  client(name: string): McpClient | undefined {
    return this.clients.get(name)?.client;
  }

  /** Closes every client; a failing close is logged and the others still close. */
  async close(): Promise<void> {
    const closing = [...this.clients.entries()].map(([name, { client }]) => this.closeClient(name, client));
    this.clients.clear();
    await Promise.all([...closing, ...this.abandoned]);
  }

  private async connectOne(config: McpServerConfig, batch: Batch, settle: (config: McpServerConfig, status: ServerStatus) => void): Promise<void> {
    let client: McpClient;
    // What the transport reported while connecting (e.g. "exited with code 1" and the server's stderr):
    // usually the real reason behind the client's terse "Connection closed".
    let report: Error | undefined;
    try {
      assertServerName(config.name);
      client = this.factory.create(config, (error) => {
        report ??= error;
        this.log.warn(`MCP server "${config.name}": ${errorMessage(error)}`);
      });
    } catch (error) {
      return settle(config, failed(config, batch, errorMessage(error)));
    }
    // Before connecting, so nothing the server sends right after initialize is missed.
    client.addNotificationListener((event) => this.notifications.publish(event));
    const outcome = await Promise.race([client.connect().then(() => 'connected' as const, (error: unknown) => ({ error })), batch.deadline]);
    if (outcome === 'given-up' || batch.over) {
      // Given up (this close kills a stdio server now), or connected after the caller was told it
      // failed: either way it is closed, never registered.
      this.abandon(config.name, client);
      return;
    }
    if (outcome !== 'connected') {
      const reason = report ? `${errorMessage(outcome.error)} (${oneLine(report.message)})` : errorMessage(outcome.error);
      return settle(config, failed(config, batch, reason));
    }
    const elapsedMs = Date.now() - batch.started;
    this.clients.set(config.name, { config, client, elapsedMs });
    const info = client.serverInfo;
    settle(config, { name: config.name, transport: config.transport, state: 'connected', elapsedMs, toolCount: 0, serverInfo: info && { name: info.name, version: info.version } });
  }

  private updateStatus(config: McpServerConfig, change: Partial<ServerStatus>): void {
    const current = this.statuses.get(config);
    if (current) this.statuses.set(config, { ...current, ...change });
  }

  private abandon(name: string, client: McpClient): void {
    const closing = this.closeClient(name, client).finally(() => this.abandoned.delete(closing));
    this.abandoned.add(closing);
  }

  private async closeClient(name: string, client: McpClient): Promise<void> {
    try {
      await client.close();
    } catch (error) {
      this.log.warn(`closing MCP server "${name}" failed: ${errorMessage(error)}`);
    }
  }
}

interface Batch {
  readonly started: number;
  readonly deadlineMs: number;
  /** Resolves when the startup deadline passes. */
  readonly deadline: Promise<'given-up'>;
  /** Set once `connectAll` has returned: anything settling later is too late. */
  over: boolean;
}

function failed(config: McpServerConfig, batch: Batch, error: string): ServerStatus {
  return { name: config.name, transport: config.transport, state: 'failed', elapsedMs: Date.now() - batch.started, toolCount: 0, error };
}

/** A multi-line report (a server's stderr tail) as one bounded line for status output. */
function oneLine(text: string): string {
  const line = text.replace(/\s*\n\s*/g, ' | ').trim();
  return line.length > 300 ? `${line.slice(0, 299)}…` : line;
}

