import { Agent } from 'undici';
import { type McpTransport } from '@toolmesh/protocol';
import { McpClient, type EraVerdict, type Implementation } from '@toolmesh/mcp-client';
import { ChildProcessTransport } from '@toolmesh/transport-stdio';
import { legacySseClientTransport, StreamableHttpClientTransport } from '@toolmesh/transport-http/client';
import type { ClientFeatures } from './host/client-features';
import { ServerOAuth, type OAuthHost } from './oauth/server-oauth';
import type { McpServerConfig } from './server-config';

/** Makes an unconnected client for a server configuration. */
export interface McpClientFactory {
  /**
   * `onClosed`: the connection ended without `close()` (the server exited, the session was lost).
   * `prior`: the era an earlier connection to this server found, to connect without probing.
   */
  create(config: McpServerConfig, onError: (error: Error) => void, onClosed?: () => void, prior?: EraVerdict): McpClient;
  /** Releases what the factory shares between clients (the HTTP connection pool). */
  close(): Promise<void>;
}

/** The real factory: a child process per stdio server, one keep-alive pool shared by all HTTP servers. */
export class TransportClientFactory implements McpClientFactory {
  private readonly httpPool = new Agent({ keepAliveTimeout: 30_000, connections: 16 });

  /**
   * `features`: sampling, elicitation and roots offered to every server; without them none is declared.
   * `oauth`: where HTTP servers with `oauth` keep their credentials and how a sign-in reaches the user;
   * without it those servers get no OAuth (a 401 fails as for static headers).
   */
  constructor(
    private readonly clientInfo: Implementation,
    private readonly features?: ClientFeatures,
    private readonly oauth?: OAuthHost,
  ) {}

  create(config: McpServerConfig, onError: (error: Error) => void, onClosed?: () => void, prior?: EraVerdict): McpClient {
    return new McpClient(this.transport(config), {
      // The 2024-11-05 HTTP+SSE transport predates server/discover.
      era: config.transport === 'sse' ? 'legacy' : (config.era ?? 'auto'),
      prior,
      serverName: config.name,
      clientInfo: this.clientInfo,
      requestTimeoutMs: config.requestTimeoutMs,
      initializeTimeoutMs: config.startupTimeoutMs,
      onError,
      serverRequests: this.features?.handlersFor(config.name),
      onClosed,
    });
  }

  async close(): Promise<void> {
    await Promise.all([this.httpPool.close(), this.features?.close()]);
  }

  private transport(config: McpServerConfig): McpTransport {
    switch (config.transport) {
      case 'stdio':
        return new ChildProcessTransport({ command: config.command, args: config.args, env: config.env, cwd: config.cwd });
      case 'streamable-http':
        return new StreamableHttpClientTransport(config.url, {
          dispatcher: this.httpPool,
          headers: config.headers,
          authorization: config.oauth && this.oauth ? new ServerOAuth(config.name, config.url, config.oauth, this.oauth) : undefined,
        });
      case 'sse':
        return legacySseClientTransport(config.url, config.headers);
    }
  }
}
