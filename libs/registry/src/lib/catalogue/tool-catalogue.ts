import type { RequestIds } from '../model/catalogue-log';
import type { ToolDefinition } from '../model/tool-definition';
import type { CatalogueGeneration } from './catalogue-generation';

/**
 * The gateway's view of the tool catalogue (the port the request path depends on). Implementations keep
 * last-good state in memory; nothing here does I/O on the request path except the cold-start load and
 * the rate-limited refresh for an unknown name.
 */
export interface ToolCatalogue {
  /**
   * The generation in memory, if any. Never waits for I/O: when a TTL has expired it starts one
   * background refresh (SPEC G15, ADR 0006) and still answers from memory.
   */
  current(): CatalogueGeneration | undefined;
  /** The generation in memory, or (cold start, memory empty) the result of one shared load. */
  ensureLoaded(): Promise<CatalogueGeneration | undefined>;
  /**
   * Called when a request names a tool that is not in `current()`: refreshes the sources once (at most
   * once per cooldown) and returns the generation to look the name up in again.
   */
  refreshForUnknownTool(name: string, requestedBy?: RequestIds): Promise<CatalogueGeneration | undefined>;
  /** A tool answered 404 or 410: its bundle is likely stale; refresh it in the background (rate-limited). */
  reportStaleTool(tool: ToolDefinition, requestedBy?: RequestIds): void;
}
