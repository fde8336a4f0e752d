import {
  type CallToolOptions,
  type CallToolResult,
  type McpClient,
  McpClientError,
  McpClientErrorCode,
  McpSession,
  type SessionConnection,
  type SessionState,
  type TaskClient,
} from '@toolmesh/mcp-client';
import { errorMessage, type ServerNotification } from '@toolmesh/protocol';
import { StdioErrorCode } from '@toolmesh/transport-stdio';

import type { McpClientFactory } from './client-factory';
import type { ToolChannel } from './mcp-tool';
import type { McpServerConfig } from './server-config';

/**
 * Waits before each reconnection attempt after a connection was lost: the first at once (a crashed
 * server is back in its own start time), then doubling up to 30 s. When all are used up the server is
 * given up (`failed`) for the rest of the session.
 */
const RECONNECT_DELAYS_MS: readonly number[] = [0, 500, 1000, 2000, 4000, 8000, 16_000, 30_000];

/** `connected`: calls go through; `down`: lost, reconnecting; `failed`: given up; `closed`: by its owner. */
export type ConnectionState = SessionState;

export interface ServerConnectionDeps {
  readonly factory: McpClientFactory;
  readonly warn: (message: string) => void;
  /** Every notification of every client this connection opens, in order. */
  readonly publish: (event: ServerNotification) => void;
  /** The state changed (down, back, given up); `detail` says why. */
  readonly onState: (connection: ServerConnection) => void;
  /** Connected again after a loss: the owner lists the tools anew (they may have changed). */
  readonly onReconnected: (connection: ServerConnection) => void;
  /** What a reconnection attempt may take (the server's startup timeout). */
  readonly reconnectLimitMs: number;
  readonly delaysMs?: readonly number[];
}

/**
 * One configured server over the agent's session (SPEC A11): its `McpSession` (libs/mcp-client), kept live
 * from the first connection on, which reconnects a lost server (a stdio server that exits, an HTTP server
 * that no longer knows our session) and gives it up when the backoff is used up, and what the agent says
 * of it: its state and why, in warnings and status output. While it is down, calls fail at once with the
 * reason; the owner withholds its tools from the model. A call that was running when the connection ended
 * is never repeated (it may have run); a call the server refused with 404 to its session never ran and is
 * sent once more on the new session.
 */
export class ServerConnection implements ToolChannel {
  private readonly session: McpSession;
  private detailValue: string | undefined;
  /** The transport's last report (an exit code and stderr tail): the reason behind "Connection closed". */
  private lastReport: Error | undefined;
  /** What the newest client's transport reported, to explain why it could not connect. */
  private attempt: { report?: Error } = {};

  constructor(
    readonly config: McpServerConfig,
    private readonly deps: ServerConnectionDeps,
  ) {
    const limitMs = deps.reconnectLimitMs;
    this.session = new McpSession({
      newClient: (connection) => this.newClient(connection),
      backoff: { delaysMs: deps.delaysMs ?? RECONNECT_DELAYS_MS, afterLast: 'give-up' },
      reconnectLimit: { ms: limitMs, text: `its startup timeout of ${limitMs} ms` },
      events: {
        onLost: () => this.lost(),
        onConnectFailed: (error) => {
          this.detailValue = oneLine(this.explained(error).message);
        },
        onGivenUp: (attempts) => this.givenUp(attempts),
        onReconnected: () => this.reconnected(),
        onLegacyChosen: (why) =>
          deps.warn(
            `${why.message}; it is spoken to with 2025-11-25 from now on, and the call runs again (era: legacy in its entry, or mcp add --era legacy, starts it so)`,
          ),
        onCloseFailed: (error) => deps.warn(`closing MCP server "${this.serverName}" failed: ${errorMessage(error)}`),
      },
    });
  }

  get serverName(): string {
    return this.config.name;
  }

  get state(): ConnectionState {
    return this.session.state;
  }

  get isConnected(): boolean {
    return this.session.state === 'connected';
  }

  /** Why it is not connected, for status output. */
  get detail(): string | undefined {
    return this.detailValue;
  }

  /** The connected client, or undefined while down. */
  get current(): McpClient | undefined {
    return this.isConnected ? this.session.current : undefined;
  }

  get downReason(): string {
    if (this.state === 'failed')
      return `MCP server "${this.serverName}" is unavailable: ${this.detailValue ?? 'it could not be reconnected'}`;
    return `MCP server "${this.serverName}" is down${this.detailValue ? ` (${this.detailValue})` : ''}; it is being reconnected`;
  }

  /** The first connection; throws a message naming the cause (a timeout, an exit code and stderr). */
  async start(limitMs: number, limitText: string): Promise<void> {
    try {
      await this.session.connect({ ms: limitMs, text: limitText });
    } catch (error) {
      throw this.explained(error);
    }
    this.session.keepLive();
  }

  /** The connected client's tasks, or undefined while down. */
  get tasks(): TaskClient | undefined {
    return this.current?.tasks;
  }

  async callTool(name: string, args: Record<string, unknown>, signal?: AbortSignal, options?: CallToolOptions): Promise<CallToolResult> {
    if (!this.current) throw new McpClientError(McpClientErrorCode.NotConnected, this.downReason);
    try {
      return await this.session.run((client) => client.callTool(name, args, signal, options), signal && untilAborted(signal));
    } catch (error) {
      if (!(error instanceof McpClientError)) throw error;
      // The session could not be renewed after a 404 (the call never ran): down, or given up, and why.
      if (error.code === McpClientErrorCode.NotConnected) throw new McpClientError(error.code, this.downReason, { cause: error });
      if (error.code === McpClientErrorCode.ConnectionLost && this.lastReport) {
        throw new McpClientError(error.code, `${error.message} (${oneLine(this.lastReport.message)})`, { cause: error });
      }
      throw error;
    }
  }

  /** Stops reconnecting and closes the client, and any still being opened or given up. */
  close(): Promise<void> {
    return this.session.close();
  }

  private newClient({ prior, lost }: SessionConnection): McpClient {
    const attempt: { report?: Error } = {};
    this.attempt = attempt;
    const client = this.deps.factory.create(
      this.config,
      (error) => {
        this.deps.warn(`MCP server "${this.serverName}": ${errorMessage(error)}`);
        // The client's own reports (a tool left out, a listen stream to reopen) say nothing of why a connection ended.
        if (error instanceof McpClientError) return;
        // The exit (its code and stderr) explains a failed start better than the write it broke.
        if (!attempt.report || isProcessExit(error)) attempt.report = error;
        this.lastReport = error;
      },
      lost,
      prior,
    );
    // Before connecting, so nothing the server sends right after initialize is missed.
    client.addNotificationListener((event) => this.deps.publish(event));
    return client;
  }

  /** A failure to connect, with what the server's transport reported meanwhile (its exit code and stderr). */
  private explained(error: unknown): Error {
    const { report } = this.attempt;
    return new Error(report ? `${errorMessage(error)} (${oneLine(report.message)})` : errorMessage(error));
  }

  private lost(): void {
    this.detailValue = this.lastReport ? oneLine(this.lastReport.message) : 'the connection ended';
    this.deps.warn(`MCP server "${this.serverName}" is down (${this.detailValue}); reconnecting`);
    this.deps.onState(this);
  }

  private givenUp(attempts: number): void {
    this.detailValue = `gave up after ${attempts} reconnection attempts; the last: ${this.detailValue}`;
    this.deps.warn(`MCP server "${this.serverName}" ${this.detailValue}`);
    this.deps.onState(this);
  }

  private reconnected(): void {
    this.detailValue = undefined;
    this.deps.warn(`MCP server "${this.serverName}" is connected again`);
    this.deps.onReconnected(this);
    this.deps.onState(this);
  }
}

/** A renewal's wait for the new session, ended by the call's abort; made only when there is such a wait. */
function untilAborted(signal: AbortSignal): { readonly expired: Promise<never> } {
  return {
    get expired(): Promise<never> {
      return new Promise<never>((_, reject) => {
        if (signal.aborted) reject(signal.reason);
        else signal.addEventListener('abort', () => reject(signal.reason), { once: true });
      });
    },
  };
}

function isProcessExit(error: Error): boolean {
  return (error as { code?: unknown }).code === StdioErrorCode.ProcessExited;
}

/** A multi-line report (a server's stderr tail) as one bounded line for status output. */
function oneLine(text: string): string {
  const line = text.replace(/\s*\n\s*/g, ' | ').trim();
  return line.length > 300 ? `${line.slice(0, 299)}…` : line;
}
