/** The catalogue's log events; a winston logger fits. Fields never hold manifest contents or credentials. */
export interface CatalogueLog {
  info(event: string, fields: Record<string, unknown>): void;
  warn(event: string, fields: Record<string, unknown>): void;
}
