import { type SearchableTool, ToolSearchIndex } from '@toolmesh/protocol';
import type { CatalogueGeneration, ToolCatalogue, ToolDefinition } from '@toolmesh/registry';
import type { RequestContext } from '@toolmesh/transport-http/server';

/**
 * Which tools a request's caller may find (the seam for per-caller authorization, G27): asked per tool
 * of a search's ranking, before the limit counts. Without authorization every caller sees every tool.
 */
export type ToolVisibility = (tool: ToolDefinition, context: RequestContext) => boolean;

const EVERY_TOOL_VISIBLE: ToolVisibility = () => true;

/**
 * The ranked search behind `search_tools` (G30), over the catalogue in memory: no tool service is asked.
 * The index follows the catalogue's generations (ToolSearchIndex.syncInSlices): a route whose manifests did
 * not change keeps its tool objects, and a reloaded tool whose text did not change is not indexed again, so
 * a new generation re-indexes only the tools that changed, once, when it is installed (`reindex`, from the
 * catalogue's change listener) or, at the latest, when the first search sees it. Indexing runs a few
 * milliseconds at a time, so the gateway keeps answering; meanwhile searches answer from the index of the
 * generation before (their results taken from the current one), and only the very first index is waited for.
 */
export class CatalogueSearch {
  private readonly index = new ToolSearchIndex<SearchableTool>();
  private indexing: CatalogueGeneration | undefined;
  private indexed = Promise.resolve();
  private firstIndex: Promise<void> | undefined;

  constructor(
    private readonly catalogue: ToolCatalogue,
    private readonly visible: ToolVisibility = EVERY_TOOL_VISIBLE,
  ) {}

  /**
   * Starts bringing the index to `generation` (the catalogue's current one), unless it is already on its
   * way; resolves when the index holds it, or a later one asked for meanwhile.
   */
  reindex(generation: CatalogueGeneration | undefined = this.catalogue.current()): Promise<void> {
    if (generation === undefined || generation === this.indexing) return this.indexed;
    this.indexing = generation;
    this.indexed = this.index.syncInSlices([...generation.tools.values()].map((tool) => tool.publicTool));
    this.firstIndex ??= this.indexed;
    return this.indexed;
  }

  /** The catalogue's generation in memory, as `tools/list` answers from it. */
  current(): CatalogueGeneration | undefined {
    return this.catalogue.current();
  }

  /** The generation searched now (a cold catalogue is loaded, and indexed, once first), or undefined when there is none. */
  async generation(): Promise<CatalogueGeneration | undefined> {
    const generation = this.catalogue.current() ?? (await this.catalogue.ensureLoaded());
    void this.reindex(generation);
    await this.firstIndex;
    return generation;
  }

  /** The best matches the caller may see, best first, at most `limit`. */
  search(generation: CatalogueGeneration, query: string, limit: number, context: RequestContext): ToolDefinition[] {
    const found: ToolDefinition[] = [];
    for (const match of this.index.search(query, limit, (tool) => this.isVisible(generation.tools.get(tool.name), context))) {
      const tool = generation.tools.get(match.name);
      if (tool) found.push(tool);
    }
    return found;
  }

  private isVisible(tool: ToolDefinition | undefined, context: RequestContext): boolean {
    return tool !== undefined && this.visible(tool, context);
  }
}
