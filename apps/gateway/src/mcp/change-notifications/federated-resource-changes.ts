import type { Logger } from '@toolmesh/transport-http/server';

import type { FederatedFeatures } from '../../upstreams/federated-features';
import type { ChangeListeners } from './change-listeners';

/**
 * Brings a change of an MCP server's resources, templates or skills, once listed again after the server told
 * it (upstream-tool-changes.ts), to this replica's open streams as `notifications/resources/list_changed`
 * (issue 49), as skill-changes.ts does for the gateway's own skills. Each replica hears each server itself.
 */
export function connectFederatedResourceChanges(
  features: Pick<FederatedFeatures, 'onResourcesChanged'>,
  listeners: ChangeListeners,
  logger: Logger,
): { stop(): void } {
  const stop = features.onResourcesChanged(() => {
    logger.info('resources_list_changed_notified', { streams: listeners.size, cause: 'mcp_servers' });
    listeners.resourcesListChanged();
  });
  return { stop };
}
