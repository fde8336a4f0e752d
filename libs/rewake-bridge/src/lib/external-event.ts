/**
 * What a server's notification becomes when it is worth waking an agent for: small, flat and bounded, so
 * it can be handed to a model as is and printed as one JSON line.
 */
export interface ExternalEvent {
  /** Unique within one resolver's lifetime (`evt-1`, `evt-2`, ...), in the order events were mapped. */
  readonly id: string;
  /** The configured name of the server that sent the notification. */
  readonly server: string;
  /** What happened, as a mapping rule names it: `resource.updated`, `log`, or a configured type. */
  readonly type: string;
  /** The notification's JSON-RPC method. */
  readonly method: string;
  readonly summary: EventSummary;
  /** ISO 8601 time the notification arrived. */
  readonly receivedAt: string;
}

/** The parts of a notification's params an agent can act on, each bounded (see SUMMARY_MAX_CHARS). */
export interface EventSummary {
  readonly uri?: string;
  readonly level?: string;
  readonly logger?: string;
  /** `params.data`, or for a custom notification the rest of its params: text as is, anything else as JSON. */
  readonly data?: string;
}

/** What a waiter wants; every given field must match, an empty filter matches every event. */
export interface EventFilter {
  readonly server?: string;
  readonly type?: string;
  readonly method?: string;
  /** The event's `summary.uri` starts with this. */
  readonly uriPrefix?: string;
}

export function matchesFilter(event: ExternalEvent, filter: EventFilter): boolean {
  return (
    (filter.server === undefined || event.server === filter.server) &&
    (filter.type === undefined || event.type === filter.type) &&
    (filter.method === undefined || event.method === filter.method) &&
    (filter.uriPrefix === undefined || (event.summary.uri?.startsWith(filter.uriPrefix) ?? false))
  );
}
