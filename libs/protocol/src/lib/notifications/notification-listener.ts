import type { JSONRPCNotification } from '../jsonrpc/messages';

/** A notification a server sent on its own initiative, with the name of the server it came from. */
export interface ServerNotification {
  /** The configured name of the server (`mcp.servers[].name`), never derived from the message. */
  readonly server: string;
  readonly notification: JSONRPCNotification;
  readonly receivedAt: Date;
}

/** Receives server notifications. Listeners must return quickly; slow work belongs on a queue of their own. */
export type NotificationListener = (event: ServerNotification) => void;

/** Anything that can deliver server notifications: a client, a client manager, a fan-out. */
export interface NotificationSource {
  /** Registers a listener; the returned function unregisters it. */
  addNotificationListener(listener: NotificationListener): () => void;
}
