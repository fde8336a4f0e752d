import { type EraVerdict, type Implementation, McpClient } from '@toolmesh/mcp-client';
import { type McpTransport } from '@toolmesh/protocol';
import { type HttpAuthorization, legacySseClientTransport, StreamableHttpClientTransport } from '@toolmesh/transport-http/client';
import { ChildProcessTransport } from '@toolmesh/transport-stdio';
import { Agent } from 'undici';

import { markedEnvironment } from '../tools/descendant-processes';
import type { ClientFeatures } from './host/client-features';
import type { HttpServerConfig, McpServerConfig } from './server-config';

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

/** What one command's clients share besides the client's name and version. */
export interface TransportClientOptions {
  /** Sampling, elicitation and roots offered to every server; without them none is declared. */
  readonly features?: ClientFeatures;
  /**
   * The authorization an HTTP server's requests carry (`serverOAuth`: OAuth for those configured with
   * `oauth`); without it none, and a 401 fails as for static headers.
   */
  readonly authorization?: (server: HttpServerConfig) => HttpAuthorization | undefined;
  /** False: no stream is opened for what servers send unasked (a command that only signs in needs none). */
  readonly listen?: boolean;
}

/**
 * The real factory, the one every command gets its clients from: a child process per stdio server, one
 * keep-alive pool shared by all HTTP servers.
 */
export class TransportClientFactory implements McpClientFactory {
  private readonly httpPool = new Agent({ keepAliveTimeout: 30_000, connections: 16 });

  constructor(
    private readonly clientInfo: Implementation,
    private readonly options: TransportClientOptions = {},
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
      serverRequests: this.options.features?.handlersFor(config.name),
      onClosed,
    });
  }

  async close(): Promise<void> {
    await Promise.all([this.httpPool.close(), this.options.features?.close()]);
  }

  private transport(config: McpServerConfig): McpTransport {
    switch (config.transport) {
      case 'stdio':
        return new ChildProcessTransport(
          { command: config.command, args: config.args, env: markedEnvironment(config.env), cwd: config.cwd },
          { maxMessageBytes: config.maxMessageBytes },
        );
      case 'streamable-http':
        return new StreamableHttpClientTransport(config.url, {
          dispatcher: this.httpPool,
          headers: config.headers,
          authorization: this.options.authorization?.(config),
          listen: this.options.listen,
          maxMessageBytes: config.maxMessageBytes,
        });
      case 'sse':
        return legacySseClientTransport(config.url, config.headers);
    }
  }
}
