import { randomUUID } from 'node:crypto';

import type { CatalogueChangeChannel, LiveCatalogue } from '@toolmesh/registry';
import type { Logger } from '@toolmesh/transport-http/server';

import type { ChangeListeners } from './change-listeners';

export interface CatalogueChangesOptions {
  readonly catalogue: Pick<LiveCatalogue, 'current' | 'refreshAll' | 'onToolsListChanged'>;
  readonly listeners: ChangeListeners;
  /** Redis pub/sub when Redis is configured; without it each replica sees only its own refreshes. */
  readonly channel?: CatalogueChangeChannel;
  /** The catalogue TTL: how often a replica that holds listeners looks for changes itself. */
  readonly refreshTtlMillis: number;
  readonly logger: Logger;
}

/**
 * Brings every tool-list change to the open notification streams of this replica (SPEC G21). The
 * catalogue refreshes at request time; a replica whose only clients are listening gets no requests, so
 * while it holds listeners it looks at the catalogue every TTL itself. A change this replica sees is
 * published to the others; a change another replica publishes makes this one refresh now, unless it
 * already holds that list, and its own refresh then notifies its listeners. Nothing is stored.
 */
export function connectCatalogueChanges(options: CatalogueChangesOptions): { stop(): void } {
  const { catalogue, listeners, channel, logger } = options;
  const replica = randomUUID();
  const stopListening = catalogue.onToolsListChanged((generation) => {
    logger.info('tools_list_changed_notified', { streams: listeners.size, generation: generation.number });
    listeners.toolsListChanged();
    channel?.publish({ replica, listDigest: generation.listDigest });
  });
  channel?.subscribe((change) => {
    if (change.replica === replica || catalogue.current()?.listDigest === change.listDigest) return;
    void catalogue.refreshAll();
  });
  const poll = setInterval(
    () => {
      if (listeners.size > 0) catalogue.current(); // starts a refresh when the TTL has passed
    },
    Math.max(options.refreshTtlMillis, 100),
  );
  poll.unref();
  return {
    stop: () => {
      clearInterval(poll);
      stopListening();
    },
  };
}
