import type { NotificationSource } from '@toolmesh/protocol';
import { errorMessage } from '@toolmesh/protocol';
import { ExternalEventResolver, McpNotificationToRewakeBridge, NotificationMapper } from '@toolmesh/rewake-bridge';

import { DEFAULT_REWAKE_CONFIG, type RewakeConfig } from '../config/rewake-config';
import type { Closeable } from './agent-runtime';

export interface Rewake {
  /** What WaitForEvent and `watch` wait on. */
  readonly events: ExternalEventResolver;
  /** Unregisters the bridge and closes the resolver, ending any wait still in progress. */
  readonly closeable: Closeable;
}

/**
 * The rewake path of one runtime (SPEC A7): the bridge listens to every notification of `source` (the
 * client manager), maps it by the configured rules and publishes the events to a resolver. Registered
 * before any server connects, so nothing a server sends right after initialize is missed.
 */
export function createRewake(source: NotificationSource, config: RewakeConfig | undefined, warn: (message: string) => void): Rewake {
  const { bufferSize, rules, defaults } = config ?? DEFAULT_REWAKE_CONFIG;
  // Once, not per event: a flood would otherwise flood stderr too.
  const events = new ExternalEventResolver(bufferSize, (droppedSoFar) => {
    if (droppedSoFar === 1)
      warn(
        `rewake: ${bufferSize} events are waiting for a WaitForEvent, so the oldest are being dropped; wait more often, narrow rewake.rules or raise rewake.bufferSize`,
      );
  });
  const mapper = new NotificationMapper(rules, { defaults });
  // Only the server is named: a notification's params are the server's data and stay out of logs.
  const bridge = new McpNotificationToRewakeBridge(mapper, events, (error, { server }) =>
    warn(`a notification from "${server}" could not be mapped to an event: ${errorMessage(error)}`),
  );
  const detach = bridge.attach(source);
  return {
    events,
    closeable: {
      name: 'the rewake event resolver',
      close: async () => {
        detach();
        events.close();
      },
    },
  };
}
