import { type McpClient, type ServerFeature, type ServerFeatures } from '@toolmesh/mcp-client';
import { errorMessage } from '@toolmesh/protocol';

import { AgentError, AgentErrorCode } from '../../errors/agent-errors';
import type { ServerStatus } from '../client-manager';

/** What the host's feature clients need of the client manager: the servers' states and their clients. */
export interface ConnectedServers {
  readonly status: readonly ServerStatus[];
  client(name: string): McpClient | undefined;
}

/** A connected server that offers a feature: its name and its features' client. */
export interface FeatureServer {
  readonly name: string;
  readonly features: ServerFeatures;
}

/** Every connected server that declared `feature`, in configuration order. */
export function serversOffering(servers: ConnectedServers, feature: ServerFeature): FeatureServer[] {
  return servers.status.flatMap((status) => {
    const client = status.state === 'connected' ? servers.client(status.name) : undefined;
    if (!client?.isConnected) return [];
    const { features } = client;
    return features.offers(feature) ? [{ name: status.name, features }] : [];
  });
}

/** The named server, connected and offering `feature`; otherwise an error that says which of the three it is not. */
export function serverOffering(servers: ConnectedServers, name: string, feature: ServerFeature): FeatureServer {
  const status = servers.status.find((s) => s.name === name);
  if (!status) {
    const known = servers.status.map((s) => s.name).join(', ') || 'none';
    throw new AgentError(AgentErrorCode.ServerNotFound, `no MCP server named "${name}" is configured (configured: ${known})`);
  }
  const client = servers.client(name);
  if (status.state !== 'connected' || !client?.isConnected) {
    throw new AgentError(
      AgentErrorCode.ServerUnavailable,
      `MCP server "${name}" is not connected${status.error ? `: ${status.error}` : ''}`,
    );
  }
  const { features } = client;
  if (!features.offers(feature)) throw new AgentError(AgentErrorCode.FeatureNotOffered, `MCP server "${name}" offers no ${feature}`);
  return { name, features };
}

/** Items of several servers, each tagged with its server, and the servers that failed to list theirs. */
export interface Listing<T> {
  readonly items: ReadonlyArray<T & { readonly server: string }>;
  readonly failures: ReadonlyArray<{ readonly server: string; readonly error: string }>;
}

/**
 * Lists from every server offering `feature`, or from the one named (whose failure then throws): a
 * server that fails is reported in `failures`, the others are still listed.
 */
export async function listFromServers<T>(
  servers: ConnectedServers,
  feature: ServerFeature,
  only: string | undefined,
  list: (server: FeatureServer) => Promise<readonly T[]>,
): Promise<Listing<T>> {
  if (only !== undefined) {
    const server = serverOffering(servers, only, feature);
    return { items: (await list(server)).map((item) => ({ ...item, server: server.name })), failures: [] };
  }
  // Listed at once, kept in configuration order.
  const settled = await Promise.all(
    serversOffering(servers, feature).map(async (server) => {
      try {
        return { server: server.name, items: await list(server) };
      } catch (error) {
        return { server: server.name, items: [], error: errorMessage(error) };
      }
    }),
  );
  const items = settled.flatMap(({ server, items }) => items.map((item) => ({ ...item, server })));
  const failures = settled.flatMap(({ server, error }) => (error === undefined ? [] : [{ server, error }]));
  return { items, failures };
}
