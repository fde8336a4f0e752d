/**
 * Most JSON values in one tool's `inputSchema` and `outputSchema` together (`mcp.catalogue.maxSchemaNodes`),
 * docs/gateway.md says why this default: well above what a model reads usefully, and a schema this size
 * compiles in a fraction of a second.
 */
export const DEFAULT_MAX_SCHEMA_NODES = 5_000;

/** What one route may cost, checked before anything is compiled (the catalogue's settings). */
export interface RouteLimits {
  /** Most tools the route may offer (`mcp.catalogue.maxTools`). */
  readonly maxTools: number;
  /** Most JSON values in one tool's schemas (`mcp.catalogue.maxSchemaNodes`); DEFAULT_MAX_SCHEMA_NODES unless set. */
  readonly maxSchemaNodes?: number;
}
