import {
  type CallToolOptions,
  type CallToolResult,
  type EraVerdict,
  McpClient,
  McpClientError,
  McpClientErrorCode,
} from '@toolmesh/mcp-client';
import { errorMessage, type ServerNotification } from '@toolmesh/protocol';
import { isSessionExpired } from '@toolmesh/transport-http/client';
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
export type ConnectionState = 'connected' | 'down' | 'failed' | 'closed';

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
 * One configured server over its whole session: the current client, and a new one when the connection
 * is lost (a stdio server that exits, an HTTP server that no longer knows our session, SPEC A11). While
 * it is down, calls fail at once with the reason; the owner withholds its tools from the model. A call
 * that was running when the connection ended is never repeated (it may have run); a call the server
 * refused with 404 to its session never ran and is sent once more on the new session.
 */
export class ServerConnection implements ToolChannel {
  private client: McpClient | undefined;
  private stateValue: ConnectionState = 'down';
  private detailValue: string | undefined;
  /** The transport's last report (an exit code and stderr tail): the reason behind "Connection closed". */
  private lastReport: Error | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  private attempt = 0;
  private opening: Promise<unknown> | undefined;
  private readonly closing = new Set<Promise<void>>();
  private readonly waiters = new Set<() => void>();
  /**
   * The server's era as the first connection found it (SPEC A18), for the session: a reconnection uses
   * it without probing, and forgets it when that fails, so the next attempt probes again.
   */
  private verdict: EraVerdict | undefined;

  constructor(
    readonly config: McpServerConfig,
    private readonly deps: ServerConnectionDeps,
  ) {}

  get serverName(): string {
    return this.config.name;
  }

  get state(): ConnectionState {
    return this.stateValue;
  }

  get isConnected(): boolean {
    return this.stateValue === 'connected';
  }

  /** Why it is not connected, for status output. */
  get detail(): string | undefined {
    return this.detailValue;
  }

  /** The connected client, or undefined while down. */
  get current(): McpClient | undefined {
    return this.isConnected ? this.client : undefined;
  }

  get downReason(): string {
    if (this.stateValue === 'failed')
      return `MCP server "${this.serverName}" is unavailable: ${this.detailValue ?? 'it could not be reconnected'}`;
    return `MCP server "${this.serverName}" is down${this.detailValue ? ` (${this.detailValue})` : ''}; it is being reconnected`;
  }

  /** The first connection; throws a message naming the cause (a timeout, an exit code and stderr). */
  async start(limitMs: number, limitText: string): Promise<void> {
    this.client = await this.open(limitMs, limitText);
    this.stateValue = 'connected';
  }

  async callTool(name: string, args: Record<string, unknown>, signal?: AbortSignal, options?: CallToolOptions): Promise<CallToolResult> {
    const client = this.current;
    if (!client) throw new McpClientError(McpClientErrorCode.NotConnected, this.downReason);
    try {
      return await client.callTool(name, args, signal, options);
    } catch (error) {
      if (isSessionExpired(error)) {
        // 404 to our session: the request never ran, so it may go once more, on the new session.
        this.lost(client);
        const next = await this.reconnected(signal);
        if (next) return next.callTool(name, args, signal, options);
        throw new McpClientError(McpClientErrorCode.NotConnected, this.downReason, { cause: error });
      }
      if (error instanceof McpClientError && error.code === McpClientErrorCode.ConnectionLost && this.lastReport) {
        throw new McpClientError(error.code, `${error.message} (${oneLine(this.lastReport.message)})`, { cause: error });
      }
      throw error;
    }
  }

  /** Stops reconnecting and closes the client, and any still being opened or given up. */
  async close(): Promise<void> {
    this.stateValue = 'closed';
    clearTimeout(this.retryTimer);
    this.wake();
    const client = this.client;
    this.client = undefined;
    if (client) this.track(client);
    await this.opening?.catch(() => undefined);
    await Promise.all([...this.closing]);
  }

  private async open(limitMs: number, limitText: string): Promise<McpClient> {
    const started = Date.now();
    try {
      const client = await this.openWith(this.verdict, limitMs, limitText);
      this.verdict = client.eraVerdict;
      return client;
    } catch (error) {
      if (!(error instanceof McpClientError && error.code === McpClientErrorCode.ProbeClosed)) {
        this.verdict = undefined;
        throw error;
      }
      // A legacy server that exits on server/discover: it is gone (no process is left), and a new
      // one is met with initialize straight away.
      this.verdict = { kind: 'legacy' };
      const client = await this.openWith(this.verdict, limitMs - (Date.now() - started), limitText);
      return client;
    }
  }

  private async openWith(prior: EraVerdict | undefined, limitMs: number, limitText: string): Promise<McpClient> {
    let report: Error | undefined;
    const client: McpClient = this.deps.factory.create(
      this.config,
      (error) => {
        this.deps.warn(`MCP server "${this.serverName}": ${errorMessage(error)}`);
        // The client's own reports (a tool left out, a listen stream to reopen) say nothing of why a connection ended.
        if (error instanceof McpClientError) return;
        // The exit (its code and stderr) explains a failed start better than the write it broke.
        if (!report || isProcessExit(error)) report = error;
        this.lastReport = error;
      },
      () => this.lost(client),
      prior,
    );
    // Before connecting, so nothing the server sends right after initialize is missed.
    client.addNotificationListener((event) => this.deps.publish(event));
    let timer: NodeJS.Timeout | undefined;
    const limit = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), limitMs);
    });
    const connecting = client.connect().then(
      () => 'connected' as const,
      (error: unknown) => ({ error }),
    );
    this.opening = connecting;
    const outcome = await Promise.race([connecting, limit]);
    clearTimeout(timer);
    if (outcome === 'timeout' || this.stateValue === 'closed') {
      // Given up (this close kills a stdio server now), or connected after its owner closed it.
      this.track(client);
      throw new Error(outcome === 'timeout' ? `did not connect within ${limitText}` : 'closed while connecting');
    }
    if (outcome !== 'connected') {
      if (outcome.error instanceof McpClientError && outcome.error.code === McpClientErrorCode.ProbeClosed) throw outcome.error;
      throw new Error(report ? `${errorMessage(outcome.error)} (${oneLine(report.message)})` : errorMessage(outcome.error));
    }
    return client;
  }

  /** The current client's connection ended without our close(): down, and reconnecting. */
  private lost(client: McpClient): void {
    if (client !== this.client || this.stateValue !== 'connected') return;
    this.detailValue = this.lastReport ? oneLine(this.lastReport.message) : 'the connection ended';
    this.stateValue = 'down';
    this.deps.warn(`MCP server "${this.serverName}" is down (${this.detailValue}); reconnecting`);
    this.deps.onState(this);
    this.attempt = 0;
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    const delays = this.deps.delaysMs ?? RECONNECT_DELAYS_MS;
    if (this.attempt >= delays.length) {
      this.stateValue = 'failed';
      this.detailValue = `gave up after ${delays.length} reconnection attempts; the last: ${this.detailValue}`;
      this.deps.warn(`MCP server "${this.serverName}" ${this.detailValue}`);
      this.deps.onState(this);
      this.wake();
      return;
    }
    this.retryTimer = setTimeout(() => void this.reconnect(), delays[this.attempt]);
    this.attempt += 1;
  }

  private async reconnect(): Promise<void> {
    if (this.stateValue !== 'down') return;
    const previous = this.client;
    this.client = undefined;
    if (previous) this.track(previous);
    try {
      this.client = await this.open(this.deps.reconnectLimitMs, `its startup timeout of ${this.deps.reconnectLimitMs} ms`);
    } catch (error) {
      if (this.stateValue !== 'down') return;
      this.detailValue = oneLine(errorMessage(error));
      this.scheduleReconnect();
      return;
    }
    this.stateValue = 'connected';
    this.detailValue = undefined;
    this.deps.warn(`MCP server "${this.serverName}" is connected again`);
    this.deps.onReconnected(this);
    this.deps.onState(this);
    this.wake();
  }

  /** The new client once reconnected; undefined when given up, closed, aborted or not within the limit. */
  private async reconnected(signal: AbortSignal | undefined): Promise<McpClient | undefined> {
    if (this.isConnected) return this.client;
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        this.waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, this.deps.reconnectLimitMs);
      signal?.addEventListener('abort', done, { once: true });
      this.waiters.add(done);
    });
    return this.current;
  }

  private wake(): void {
    for (const waiter of [...this.waiters]) waiter();
  }

  /** Closes a client that is no longer ours; `close()` waits for it. */
  private track(client: McpClient): void {
    const closing = client
      .close()
      .catch((error: unknown) => this.deps.warn(`closing MCP server "${this.serverName}" failed: ${errorMessage(error)}`))
      .finally(() => this.closing.delete(closing));
    this.closing.add(closing);
  }
}

function isProcessExit(error: Error): boolean {
  return (error as { code?: unknown }).code === StdioErrorCode.ProcessExited;
}

/** A multi-line report (a server's stderr tail) as one bounded line for status output. */
function oneLine(text: string): string {
  const line = text.replace(/\s*\n\s*/g, ' | ').trim();
  return line.length > 300 ? `${line.slice(0, 299)}…` : line;
}
