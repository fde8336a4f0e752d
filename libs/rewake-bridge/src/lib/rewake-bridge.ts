import type { NotificationListener, NotificationSource, ServerNotification } from '@toolmesh/protocol';

import type { EventSink } from './external-event-resolver';
import type { NotificationMapping } from './notification-mapper';

/**
 * The consumer the seed's notification SPI was made for (seed §7.2, D9): it listens to server
 * notifications, maps them through the rules and publishes the events. It never throws into the
 * fan-out that calls it: a mapping that fails is reported through `onError` and the notification
 * dropped, so the other listeners and later notifications are unaffected.
 */
export class McpNotificationToRewakeBridge {
  private sequence = 0;

  constructor(
    private readonly mapper: NotificationMapping,
    private readonly events: EventSink,
    private readonly onError: (error: unknown, notification: ServerNotification) => void,
  ) {}

  /** The bridge as the protocol's `NotificationListener`. */
  readonly listener: NotificationListener = (notification) => {
    try {
      const mapped = this.mapper.map(notification);
      if (mapped) this.events.publish({ id: `evt-${++this.sequence}`, ...mapped });
    } catch (error) {
      this.onError(error, notification);
    }
  };

  /** Registers the bridge on a source (a client manager); the returned function unregisters it. */
  attach(source: NotificationSource): () => void {
    return source.addNotificationListener(this.listener);
  }
}
