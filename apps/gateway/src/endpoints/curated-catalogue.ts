import type { CatalogueGeneration, LiveCatalogue, ToolCatalogue, ToolDefinition } from '@toolmesh/registry';

import type { CuratedGeneration, ToolSelection } from './tool-selection';

type RequestIds = Parameters<ToolCatalogue['refreshForUnknownTool']>[1];

/** What a curated view needs of the gateway's catalogue. */
export type CatalogueSource = Pick<LiveCatalogue, keyof ToolCatalogue | 'refreshAll' | 'onToolsListChanged'>;

/**
 * A curated endpoint's catalogue (issue 46): the gateway's own, seen through the endpoint's selection. No
 * state of its own but the curated form of the latest generation: refreshes, loads and stale tools are the
 * gateway's catalogue's, and a name outside the subset is unknown here as any unknown name is. Its list
 * changes when the subset's list does, not when the rest of the catalogue does: that is what its
 * listeners are told.
 */
export class CuratedCatalogue implements ToolCatalogue {
  private source: CatalogueGeneration | undefined;
  private curated: CuratedGeneration | undefined;

  constructor(
    private readonly catalogue: CatalogueSource,
    private readonly selection: ToolSelection,
  ) {}

  current(): CatalogueGeneration | undefined {
    return this.of(this.catalogue.current());
  }

  async ensureLoaded(): Promise<CatalogueGeneration | undefined> {
    return this.of(await this.catalogue.ensureLoaded());
  }

  async refreshForUnknownTool(name: string, requestedBy?: RequestIds): Promise<CatalogueGeneration | undefined> {
    return this.of(await this.catalogue.refreshForUnknownTool(name, requestedBy));
  }

  reportStaleTool(tool: ToolDefinition, requestedBy?: RequestIds): void {
    this.catalogue.reportStaleTool(tool, requestedBy);
  }

  async refreshAll(): Promise<CatalogueGeneration | undefined> {
    return this.of(await this.catalogue.refreshAll());
  }

  /** The curated form of the latest generation, with the tools it selects but cannot show (for `/actuator/toolBundles`). */
  latest(): CuratedGeneration | undefined {
    this.current();
    return this.curated;
  }

  /** Called with each curated generation whose tool list differs from the one before. */
  onToolsListChanged(listener: (generation: CatalogueGeneration) => void): () => void {
    let digest = this.current()?.listDigest;
    return this.catalogue.onToolsListChanged((generation) => {
      const curated = this.of(generation);
      if (curated === undefined || curated.listDigest === digest) return;
      digest = curated.listDigest;
      listener(curated);
    });
  }

  /** One curation per generation of the gateway's catalogue; a request compares one reference. */
  private of(generation: CatalogueGeneration | undefined): CatalogueGeneration | undefined {
    if (generation === undefined) return undefined;
    if (generation !== this.source) {
      this.curated = this.selection.curate(generation);
      this.source = generation;
    }
    return this.curated?.generation;
  }
}
