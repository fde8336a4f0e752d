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
 * The index follows the catalogue's generations (ToolSearchIndex.sync): a route whose manifests did not
 * change keeps its tool objects, and a reloaded tool whose text did not change is not indexed again, so a
 * new generation re-indexes only the tools that changed, once, when it is installed (`reindex`, from the
 * catalogue's change listener) or, at the latest, by the first search that sees it.
 */
export class CatalogueSearch {
  private readonly index = new ToolSearchIndex<SearchableTool>();
  private indexed: CatalogueGeneration | undefined;

  constructor(
    private readonly catalogue: ToolCatalogue,
    private readonly visible: ToolVisibility = EVERY_TOOL_VISIBLE,
  ) {}

  /** Brings the index to the catalogue's current generation; nothing to do when it already is. */
  reindex(generation: CatalogueGeneration | undefined = this.catalogue.current()): void {
    if (generation === undefined || generation === this.indexed) return;
    this.index.sync([...generation.tools.values()].map((tool) => tool.publicTool));
    this.indexed = generation;
  }

  /** The catalogue's generation in memory, as `tools/list` answers from it. */
  current(): CatalogueGeneration | undefined {
    return this.catalogue.current();
  }

  /** The generation searched now (a cold catalogue is loaded once first), or undefined when there is none. */
  async generation(): Promise<CatalogueGeneration | undefined> {
    const generation = this.catalogue.current() ?? (await this.catalogue.ensureLoaded());
    this.reindex(generation);
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
