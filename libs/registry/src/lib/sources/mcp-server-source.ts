import { errorMessage } from '@toolmesh/protocol';

import { RegistryError, RegistryErrorCode } from '../errors';
import type { JsonSource } from '../model/json-source';

/**
 * Lists an MCP server's tools (issue 28): every page of its `tools/list`, within the deadline the
 * lister keeps. The gateway injects it, since the MCP client is not the catalogue's to import.
 */
export interface ToolLister {
  /** The server's URL, for logs and status: origin and path, never credentials. */
  readonly location: string;
  listTools(): Promise<readonly unknown[]>;
}

/**
 * An MCP server as the document source of a route: its tools as `{ tools }`, the form a manifest has, so
 * they are validated, kept as the route's last good snapshot and written to the shared cache as any
 * manifest's are. A failure is `registry.mcp_server_unreachable`, naming the server by its location.
 */
export class McpServerToolsSource implements JsonSource {
  constructor(private readonly lister: ToolLister) {}

  get location(): string {
    return this.lister.location;
  }

  async fetch(): Promise<unknown> {
    try {
      return { tools: await this.lister.listTools() };
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
