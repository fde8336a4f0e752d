import type { EraSetting, Implementation } from '@toolmesh/mcp-client';
import type { ToolLister } from '@toolmesh/registry';
import type { Logger } from '@toolmesh/transport-http/server';
import { Agent } from 'undici';

import { CircuitBreaker } from '../call/circuit-breaker';
import type { ServiceCredentials } from '../call/service-credentials';
import type { BundleSettings, McpServerBundleSettings, McpServerOAuthSettings } from '../config/gateway-config';
import type { ClientCredentialsSettings } from './client-credentials';
import { type HeldCallLimits, HeldCalls } from './held-calls';
import type { UpstreamAnswer } from './relayed-request';
import type { UpstreamChange, UpstreamConnection, UpstreamDeps, UpstreamSettings } from './upstream-connection';

/** Failed requests in a row that open an MCP server's circuit, and how long it then stays open (docs/errors.md). */
const BREAKER = { failureThreshold: 3, coolDownMillis: 5_000 };

/** The configuration's era names, as the MCP client's settings name them. */
const ERA: Record<NonNullable<McpServerBundleSettings['era']>, EraSetting> = { auto: 'auto', '2025': 'legacy', '2026-07-28': '2026-07-28' };

export interface McpUpstreamsOptions {
  readonly clientInfo: Implementation;
  /** The headers' secrets by bundle, and the OAuth client secrets. */
  readonly credentials: ServiceCredentials;
  /** The deadline of a connection's handshake and of one whole listing. */
  readonly listTimeoutMillis: number;
  /** How many calls may wait for a 2026 caller's retry at once (`mcp.heldCalls`). */
  readonly heldCalls: HeldCallLimits;
  /** How many requests of one call's server may wait for the caller's answers at once (`mcp.maxRelayedRequestsPerCall`). */
  readonly maxRelayedRequestsPerCall: number;
  readonly logger: Logger;
}

/**
 * The MCP servers of this replica's `mcpServer` bundles (issue 28), one connection each, sharing one
 * keep-alive pool: the catalogue lists their tools through them, and their tools' calls are forwarded
 * through them. The connections' module, and with it the MCP client, is loaded when a listing or a call
 * first needs one: a gateway without such bundles never loads the client (ADR 0018).
 */
export class McpUpstreams {
  private readonly settings = new Map<string, UpstreamSettings>();
  private readonly connections = new Map<string, Promise<UpstreamConnection>>();
  /** The same connections once their module has loaded. */
  private readonly loaded = new Map<string, UpstreamConnection>();
  private pool: Agent | undefined;
  /** The calls, gets and reads waiting for a 2026 caller's retry with its answers (a 2025 server asked during them). */
  readonly held: HeldCalls<UpstreamAnswer>;

  constructor(
    bundles: readonly BundleSettings[],
    private readonly options: McpUpstreamsOptions,
  ) {
    this.held = new HeldCalls(options.heldCalls);
    for (const { name, mcpServer } of bundles) {
      if (mcpServer === undefined) continue;
      const url = new URL(mcpServer.url);
      this.settings.set(name, {
        bundle: name,
        url,
        location: `${url.origin}${url.pathname}`,
        era: ERA[mcpServer.era ?? 'auto'],
        headers: () => options.credentials.headers(name),
        listTimeoutMillis: options.listTimeoutMillis,
        maxRelayedRequestsPerCall: options.maxRelayedRequestsPerCall,
        ...(mcpServer.oauth && { oauth: clientCredentials(mcpServer.oauth, options) }),
      });
    }
  }

  /** The connection of the bundle (route) `routeToken`, opened on first use; undefined for any other bundle. */
  connection(routeToken: string): Promise<UpstreamConnection> | undefined {
    const existing = this.connections.get(routeToken);
    if (existing !== undefined) return existing;
    const settings = this.settings.get(routeToken);
    if (settings === undefined) return undefined;
    this.pool ??= new Agent({ keepAliveTimeout: 30_000 });
    const deps: UpstreamDeps = {
      dispatcher: this.pool,
      clientInfo: this.options.clientInfo,
      breaker: new CircuitBreaker(BREAKER),
      logger: this.options.logger,
    };
    const connection = import('./upstream-connection').then((module) => {
      const made = new module.UpstreamConnection(settings, deps);
      this.loaded.set(routeToken, made);
      return made;
    });
    this.connections.set(routeToken, connection);
    return connection;
  }

  /**
   * The connection itself once it is made, else its promise (undefined for any other bundle): a forwarded
   * call then starts at once, where awaiting a settled promise would cost it a turn of the microtask queue.
   */
  connectionNow(routeToken: string): UpstreamConnection | Promise<UpstreamConnection> | undefined {
    return this.loaded.get(routeToken) ?? this.connection(routeToken);
  }

  /**
   * Listens to every MCP server for changes of its tools, resources and prompts, one connection per server
   * kept open on this replica (`UpstreamConnection.watch`); `onChanged` is told the bundle and what changed.
   */
  watchChanges(onChanged: (bundle: string, change: UpstreamChange) => void): void {
    for (const bundle of this.settings.keys()) {
      void this.connection(bundle)?.then((connection) => connection.watch((change) => onChanged(bundle, change)));
    }
  }

  /** What the catalogue lists a configured `mcpServer` bundle's tools through. */
  lister(bundle: string): ToolLister {
    const settings = this.settings.get(bundle);
    if (settings === undefined) throw new Error(`bundle ${bundle} has no MCP server`);
    return {
      location: settings.location,
      listTools: async () => {
        const connection = await this.connection(bundle);
        return connection === undefined ? { tools: [] } : connection.listTools();
      },
    };
  }

  async close(): Promise<void> {
    this.held.close();
    const connections = await Promise.all(this.connections.values());
    await Promise.all(connections.map((connection) => connection.close()));
    await this.pool?.close();
  }
}

/** A bundle's `mcpServer.oauth`, its secret read from where the configuration says each time a token is fetched. */
function clientCredentials(oauth: McpServerOAuthSettings, options: McpUpstreamsOptions): ClientCredentialsSettings {
  return {
    tokenUrl: new URL(oauth.tokenUrl),
    clientId: oauth.clientId,
    clientSecret: () => options.credentials.read(oauth.clientSecret),
    timeoutMillis: options.listTimeoutMillis,
    ...(oauth.scope !== undefined && { scope: oauth.scope }),
    ...(oauth.resource !== undefined && { resource: oauth.resource }),
  };
}
