/** The catalogue's log events; a winston logger fits. Fields never hold manifest contents or credentials. */
export interface CatalogueLog {
  /** `requestedBy`: the request a line is about (a forced refresh), whose ids the line then carries. */
  info(event: string, fields: Record<string, unknown>, requestedBy?: RequestIds): void;
  warn(event: string, fields: Record<string, unknown>): void;
}

/** The correlation ids of the request that caused a catalogue event. */
export interface RequestIds {
  readonly guid: string;
  readonly requestId: string;
}
