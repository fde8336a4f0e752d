import type { NotificationListener, NotificationSource, ServerNotification } from './notification-listener';

/**
 * Delivers each notification to every registered listener, in registration order. A listener that throws
 * is reported through `onListenerError` and does not keep the others from their notification.
 */
export class NotificationFanout implements NotificationSource {
  private readonly listeners = new Set<NotificationListener>();

  constructor(private readonly onListenerError: (error: unknown, event: ServerNotification) => void) {}

  addNotificationListener(listener: NotificationListener): () => void {
    // Wrapped so that registering the same function twice yields two independent registrations.
    const registration: NotificationListener = (event) => listener(event);
    this.listeners.add(registration);
    return () => {
      this.listeners.delete(registration);
    };
  }

  publish(event: ServerNotification): void {
    // A snapshot, so listeners that unsubscribe while being called do not disturb this delivery.
    for (const listener of [...this.listeners]) {
      try {
        listener(event);
      } catch (error) {
        this.onListenerError(error, event);
      }
    }
  }

  get listenerCount(): number {
    return this.listeners.size;
  }
}
