import { errorMessage } from '@toolmesh/protocol';
import { isSessionExpired } from '@toolmesh/transport-http/client';

import { type Backoff, delayBefore } from '../backoff';
import type { EraVerdict } from '../client-era';
import { McpClientError, McpClientErrorCode } from '../client-errors';
import { isLegacyAsk } from '../legacy-asks';
import type { McpClient } from '../mcp-client';

/** What the session gives the client it makes for one connection. */
export interface SessionConnection {
  /** The era an earlier connection of this session found: the client connects without probing (`McpClientOptions.prior`). */
  readonly prior: EraVerdict | undefined;
  /**
   * Tells the session the connection ended without its close: the client's `onClosed`, and whatever else
   * ends a connection for good (a 2025 server's GET stream that cannot be reopened).
   */
  readonly lost: () => void;
}

/** How long opening one connection may take, and how its failure names that limit. */
export interface ConnectLimit {
  readonly ms: number;
  readonly text: string;
}

/** Ends a wait for a connection: `expired` rejects when the caller stops waiting (a call's deadline). Read only when there is a wait. */
export interface ConnectionWait {
  readonly expired: Promise<never>;
}

/** `connected`; `down`: not connected (reconnecting, when kept live); `failed`: the backoff gave up; `closed`: by its owner. */
export type SessionState = 'connected' | 'down' | 'failed' | 'closed';

/** What the owner hears of the session, each as it happens; every one optional. */
export interface McpSessionEvents {
  /** A connection was opened, the first or a later one. */
  readonly onConnected?: (client: McpClient) => void;
  /** The current connection was lost: it ended, or the server no longer knows its session. */
  readonly onLost?: (client: McpClient) => void;
  /** Kept live: connected again after a loss or a failed attempt. What changed meanwhile was never told. */
  readonly onReconnected?: (client: McpClient) => void;
  /** Kept live: an attempt to connect failed; the next follows the backoff. */
  readonly onConnectFailed?: (error: unknown) => void;
  /** Kept live: the backoff gave up after `attempts` attempts; the session stays `failed`. */
  readonly onGivenUp?: (attempts: number) => void;
  /** The server answered 404 to the session: the request never ran, and goes once more on a new session. */
  readonly onRenewed?: () => void;
  /**
   * A 2026-07-28 server failed a call by asking the 2025 way (`client.server_requests_need_legacy`, `why`):
   * the session speaks 2025-11-25 with it from now on, and runs the call once more on that connection.
   */
  readonly onLegacyChosen?: (why: McpClientError) => void;
  /** A client the session let go of failed to close. */
  readonly onCloseFailed?: (error: unknown) => void;
}

export interface McpSessionOptions {
  /** Makes the unconnected client of one connection (its transport, the app's handlers and listeners). */
  readonly newClient: (connection: SessionConnection) => McpClient;
  readonly backoff: Backoff;
  /** What one attempt to connect again may take; without it, the client's own handshake timeout. */
  readonly reconnectLimit?: ConnectLimit;
  readonly events?: McpSessionEvents;
}

/**
 * One MCP server over the owner's whole use of it, for both apps: the current `McpClient`, and a new one
 * when that is lost. It keeps
 * - the era verdict of the server (SPEC A18): the first connection finds it, every later one reuses it
 *   without probing, and forgets it when that fails, so the next attempt probes again; a legacy server
 *   that ends the connection when probed is met with `initialize` at once;
 * - the session: a request the server answered 404 to our session never ran, so it goes once more on a
 *   new session (`run`); nothing that may have reached the server is repeated;
 * - the connection live once `keepLive` is called: reopened after each loss, after the backoff's delays.
 *   One client at a time, so one listen stream at a time (a 2025 server's GET stream, a 2026-07-28
 *   server's `subscriptions/listen`, which the client keeps open): the lost client is closed, its stream
 *   with it, before the next one opens.
 * What is the app's stays the app's: its transports and credentials (`newClient`), a circuit breaker, the
 * tools it offers, what it tells its users (`events`).
 */
export class McpSession {
  private client: McpClient | undefined;
  private opening: Promise<McpClient> | undefined;
  private verdict: EraVerdict | undefined;
  private stateValue: SessionState = 'down';
  private live = false;
  private retryTimer: NodeJS.Timeout | undefined;
  private attempt = 0;
  private readonly closing = new Set<Promise<void>>();

  constructor(private readonly options: McpSessionOptions) {}

  get state(): SessionState {
    return this.stateValue;
  }

  /** The connected client, or undefined. */
  get current(): McpClient | undefined {
    const client = this.client;
    return client?.isConnected ? client : undefined;
  }

  /** The connected client: the current one, the one being opened, or a new one (within `limit`, when given). */
  connect(limit?: ConnectLimit): Promise<McpClient> {
    const client = this.client;
    if (client?.isConnected) return Promise.resolve(client);
    if (this.stateValue === 'closed') return Promise.reject(new Error('closed'));
    this.opening ??= this.open(limit).finally(() => {
      this.opening = undefined;
    });
    return this.opening;
  }

  /**
   * Runs `use` on the connection, opened first if need be (waiting at most until `wait` expires); a 404 to
   * the session opens a new one and runs `use` once more. Not async on an open connection (every request
   * but the first): `use`'s promise goes on with a handler for its failure only, no async function's
   * promise and turns of the microtask queue (docs/adr/0005-gateway-hot-path.md).
   */
  run<T>(use: (client: McpClient) => Promise<T>, wait?: ConnectionWait): Promise<T> {
    const client = this.client;
    if (client?.isConnected) return use(client).catch((error: unknown) => this.renewed(error, client, use, wait));
    return this.connectedWithin(wait).then((opened) => use(opened).catch((error: unknown) => this.renewed(error, opened, use, wait)));
  }

  /** From now on the connection is kept open: opened now if it is not, and again after each loss, after the backoff. */
  keepLive(): void {
    this.live = true;
    if (!this.current) this.attemptConnect(false);
  }

  /** Stops reconnecting and closes the client, and any still being opened or let go of. */
  async close(): Promise<void> {
    this.stateValue = 'closed';
    clearTimeout(this.retryTimer);
    const client = this.client;
    this.client = undefined;
    if (client) this.letGo(client);
    await this.opening?.catch(() => undefined);
    await Promise.all([...this.closing]);
  }

  /**
   * A 404 to our session: the request never ran, so it goes once more, on a new session. A call its
   * 2026-07-28 server failed by asking the 2025 way goes once more with 2025-11-25 (legacyChosen). Any other
   * failure is thrown.
   */
  private async renewed<T>(error: unknown, client: McpClient, use: (client: McpClient) => Promise<T>, wait?: ConnectionWait): Promise<T> {
    if (isLegacyAsk(error)) return this.legacyChosen(error, client, use, wait);
    if (!isSessionExpired(error)) throw error;
    this.options.events?.onRenewed?.();
    this.drop(client);
    let next: McpClient;
    try {
      next = await this.connectedWithin(wait);
    } catch (cause) {
      throw new McpClientError(
        McpClientErrorCode.NotConnected,
        `MCP server "${client.serverName}" no longer knows our session, and a new one could not be opened: ${errorMessage(cause)}`,
        { cause },
      );
    }
    return use(next);
  }

  /**
   * The server speaks 2026-07-28 but its handlers ask the 2025 way, which only 2025-11-25 carries (the
   * SDKs' `ctx.elicit`, `createMessage`): the verdict becomes legacy, so this and every later connection
   * of the session sends `initialize`, and the call runs once more there. The server failed it where it
   * asked, so what its handler did before asking is done again; `era: legacy` avoids that. A server that
   * does not take `initialize` fails the call with the reason.
   */
  private async legacyChosen<T>(
    why: McpClientError,
    client: McpClient,
    use: (client: McpClient) => Promise<T>,
    wait?: ConnectionWait,
  ): Promise<T> {
    if (this.client === client) {
      this.verdict = { kind: 'legacy' };
      this.client = undefined;
      this.letGo(client);
      this.options.events?.onLegacyChosen?.(why);
    }
    let next: McpClient;
    try {
      next = await this.connectedWithin(wait);
    } catch (cause) {
      throw new McpClientError(
        McpClientErrorCode.ServerRequestsNeedLegacy,
        `${why.message}; and it could not be connected with 2025-11-25: ${errorMessage(cause)}`,
        { cause },
      );
    }
    return use(next);
  }

  private connectedWithin(wait: ConnectionWait | undefined): Promise<McpClient> {
    const connecting = this.connect(this.options.reconnectLimit);
    return wait ? Promise.race([connecting, wait.expired]) : connecting;
  }

  private async open(limit: ConnectLimit | undefined): Promise<McpClient> {
    const started = Date.now();
    let client: McpClient;
    try {
      client = await this.openWith(this.verdict, limit);
    } catch (error) {
      this.verdict = undefined;
      if (!(error instanceof McpClientError && error.code === McpClientErrorCode.ProbeClosed)) throw error;
      // A legacy server that ends the connection when asked server/discover (a stdio one has exited): a new
      // connection meets it with initialize straight away.
      client = await this.openWith({ kind: 'legacy' }, limit && { ms: limit.ms - (Date.now() - started), text: limit.text });
    }
    this.verdict = client.eraVerdict;
    this.client = client;
    this.stateValue = 'connected';
    this.options.events?.onConnected?.(client);
    return client;
  }

  private async openWith(prior: EraVerdict | undefined, limit: ConnectLimit | undefined): Promise<McpClient> {
    // Dropped a microtask later: the SDK fails the calls running on a closed connection right after telling
    // the close, each with its own error (`client.connection_lost`); closing the client first would fail
    // them as cancelled instead.
    const client: McpClient = this.options.newClient({ prior, lost: () => queueMicrotask(() => this.drop(client)) });
    const connecting = client.connect();
    if (limit && (await within(connecting, limit.ms)) === 'timeout') {
      // Given up: closing it ends the attempt (and a stdio server's process) now.
      this.letGo(client);
      throw new Error(`did not connect within ${limit.text}`);
    }
    await connecting;
    if (this.stateValue === 'closed') {
      this.letGo(client);
      throw new Error('closed while connecting');
    }
    return client;
  }

  /** The current client's connection ended, or its session did: let go of, and reconnected when kept live. */
  private drop(client: McpClient): void {
    if (client !== this.client) return;
    this.client = undefined;
    if (this.stateValue === 'connected') this.stateValue = 'down';
    this.attempt = 0;
    this.options.events?.onLost?.(client);
    this.letGo(client);
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (!this.live || this.stateValue === 'closed' || this.retryTimer !== undefined) return;
    const delay = delayBefore(this.options.backoff, this.attempt);
    if (delay === undefined) {
      this.stateValue = 'failed';
      this.options.events?.onGivenUp?.(this.attempt);
      return;
    }
    this.attempt += 1;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      this.attemptConnect(true);
    }, delay);
    this.retryTimer.unref();
  }

  private attemptConnect(again: boolean): void {
    this.connect(this.options.reconnectLimit).then(
      (client) => {
        this.attempt = 0;
        if (again) this.options.events?.onReconnected?.(client);
      },
      (error: unknown) => {
        if (this.stateValue === 'closed') return;
        this.options.events?.onConnectFailed?.(error);
        this.scheduleReconnect();
      },
    );
  }

  /** Closes a client that is no longer ours; `close()` waits for it. */
  private letGo(client: McpClient): void {
    const closing = client
      .close()
      .catch((error: unknown) => this.options.events?.onCloseFailed?.(error))
      .finally(() => this.closing.delete(closing));
    this.closing.add(closing);
  }
}

/** Whether `connecting` settled within `ms`; its failure is thrown. */
async function within(connecting: Promise<void>, ms: number): Promise<'connected' | 'timeout'> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), ms);
  });
  try {
    return await Promise.race([connecting.then(() => 'connected' as const), limit]);
  } finally {
    clearTimeout(timer);
  }
}
