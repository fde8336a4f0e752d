import type { LiveCatalogue } from '@toolmesh/registry';

import type { FederatedFeatures } from './federated-features';
import type { McpUpstreams } from './mcp-upstreams';

/** How long an MCP server's burst of `list_changed` is gathered into one refresh of its route. */
const DEBOUNCE_MILLIS = 100;

/**
 * An MCP server's `notifications/tools/list_changed` refreshes its bundle's route at once (issue 28): the
 * new generation reaches this replica's notification streams and, through the change channel, the other
 * replicas' (`connectCatalogueChanges`), which also listen to the server themselves. A burst becomes one
 * refresh. A change told while a refresh runs is not lost: its own refresh follows, when the catalogue's
 * interval between requested refreshes of a route allows it. Its `notifications/resources/list_changed` or
 * `prompts/list_changed` has its resources, prompts and skills listed again at once (issue 49), which
 * coalesces a burst itself (feature-listings.ts); every replica hears the server, so nothing goes over Redis.
 */
export function refreshOnUpstreamChanges(
  upstreams: Pick<McpUpstreams, 'watchChanges'>,
  catalogue: Pick<LiveCatalogue, 'requestRefresh'>,
  features?: Pick<FederatedFeatures, 'relist'>,
): { stop(): void } {
  const pending = new Map<string, NodeJS.Timeout>();
  let stopped = false;
  const refreshSoon = (bundle: string, delayMillis: number) => {
    if (stopped || pending.has(bundle)) return;
    const timer = setTimeout(() => {
      pending.delete(bundle);
      void catalogue.requestRefresh(bundle).then((refresh) => {
        if (refresh.outcome === 'too-soon') refreshSoon(bundle, refresh.retryAfterMillis);
      });
    }, delayMillis);
    timer.unref();
    pending.set(bundle, timer);
  };
  upstreams.watchChanges((bundle, change) => {
    if (change === 'tools') refreshSoon(bundle, DEBOUNCE_MILLIS);
    else if (!stopped) features?.relist(bundle);
  });
  return {
    stop: () => {
      stopped = true;
      for (const timer of pending.values()) clearTimeout(timer);
    },
  };
}
