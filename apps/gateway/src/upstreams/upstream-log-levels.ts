import type { McpClient } from '@toolmesh/mcp-client';
import { LOGGING_LEVELS } from '@toolmesh/protocol';

/**
 * The log level each 2025 server's session on this replica was asked for (issue 44). Such a session is the
 * replica's, shared by every caller, and `logging/setLevel` is the session's: the server is asked, before
 * a call, for the call's level when that is lower than any it was asked for on that connection, so it sends
 * what the most verbose of its callers wants; each caller is then passed only what is at or above its own
 * level (CallStream). The level is never raised again while the connection lasts: another caller's calls
 * may still be running at the lower one. A 2026-07-28 server is asked per call, in its `_meta`.
 */
export class UpstreamLogLevels {
  /** By connection: a new connection's server was asked nothing. */
  private readonly asked = new WeakMap<McpClient, number>();

  constructor(
    private readonly timeoutMillis: number,
    private readonly onFailed: (error: unknown) => void,
  ) {}

  /**
   * What a call at `level` waits for first: the server asked for that level, when it must be; else
   * undefined, and the call waits for nothing (most calls). A failure is logged, not the call's: without
   * the lower level the call runs as it would have, with fewer log messages.
   */
  lowerFor(client: McpClient, level: string | undefined): Promise<void> | undefined {
    if (level === undefined || client.era !== 'legacy') return undefined;
    const rank = LOGGING_LEVELS.indexOf(level);
    if (rank >= (this.asked.get(client) ?? LOGGING_LEVELS.length)) return undefined;
    // Set before it is answered, so the calls that come meanwhile do not ask again.
    this.asked.set(client, rank);
    return client.features.setLogLevel(level, { timeoutMs: this.timeoutMillis }).then(
      () => undefined,
      (error: unknown) => this.onFailed(error),
    );
  }
}
