import type { ReadResourceResult, Resource, ResourceTemplate } from '@toolmesh/mcp-client';

import { type ConnectedServers, listFromServers, type Listing, serverOffering } from './connected-servers';

/**
 * The host's resource client (SPEC A13): lists, lists templates and reads the resources of the connected
 * servers. An interface of its own beside the tool client, which it does not grow (seed §9.3); it looks
 * each server up at every call, so a reconnected server is used as it is now.
 */
export class McpResourceClient {
  constructor(private readonly servers: ConnectedServers) {}

  /** Every resource of every server offering resources, or of `server` only (all pages). */
  list(server?: string, signal?: AbortSignal): Promise<Listing<Resource>> {
    return listFromServers(this.servers, 'resources', server, ({ features }) => features.listResources({ signal }));
  }

  templates(server?: string, signal?: AbortSignal): Promise<Listing<ResourceTemplate>> {
    return listFromServers(this.servers, 'resources', server, ({ features }) => features.listResourceTemplates({ signal }));
  }

  /** Reads one resource (a listed URI, or one a template expands to). */
  read(server: string, uri: string, signal?: AbortSignal): Promise<ReadResourceResult> {
    return serverOffering(this.servers, server, 'resources').features.readResource(uri, { signal });
  }
}
