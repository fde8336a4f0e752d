import { errorMessage } from '@toolmesh/protocol';

import { RegistryError, RegistryErrorCode } from '../errors';
import type { JsonSource } from '../model/json-source';

/** An MCP server's tools, and which of them it lists only to clients declaring some capabilities. */
export interface McpToolListing {
  readonly tools: readonly unknown[];
  /**
   * By the tool's name on the server: the client capabilities (`sampling`, `elicitation`, `roots`) a caller
   * must all declare to be shown the tool and to call it (issue 44). A tool not named here is for every caller.
   */
  readonly requiredCapabilities?: Readonly<Record<string, readonly string[]>>;
}

/**
 * Lists an MCP server's tools (issue 28): every page of its `tools/list`, within the deadline the
 * lister keeps. The gateway injects it, since the MCP client is not the catalogue's to import.
 */
export interface ToolLister {
  /** The server's URL, for logs and status: origin and path, never credentials. */
  readonly location: string;
  listTools(): Promise<McpToolListing>;
}

/**
 * An MCP server as the document source of a route: its tools as `{ tools }`, the form a manifest has, so
 * they are validated, kept as the route's last good snapshot and written to the shared cache as any
 * manifest's are, with `requiredCapabilities` beside them when some tool needs one. A failure is `registry.mcp_server_unreachable`, naming the server by its location.
 */
export class McpServerToolsSource implements JsonSource {
  constructor(private readonly lister: ToolLister) {}

  get location(): string {
    return this.lister.location;
  }

  async fetch(): Promise<unknown> {
    try {
      const { tools, requiredCapabilities } = await this.lister.listTools();
      return requiredCapabilities !== undefined && Object.keys(requiredCapabilities).length > 0
        ? { tools, requiredCapabilities }
        : { tools };
    } catch (error) {
      throw new RegistryError(
        RegistryErrorCode.McpServerUnreachable,
        `MCP server ${this.location}: tools/list failed: ${errorMessage(error)}`,
        {
          cause: error,
        },
      );
    }
  }
}
