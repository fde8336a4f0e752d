import { CatalogueGeneration, type ToolCatalogue, type ToolDefinition } from '@toolmesh/registry';
import { syntheticTools } from '@toolmesh/test-peers/synthetic-tool-catalogue';
import type { RequestContext } from '@toolmesh/transport-http/server';

import { CatalogueSearch } from './catalogue-search';

/** A catalogue tool with only what search and tools/list read. */
const tool = (name: string, description: string, routeToken = 'r1'): ToolDefinition =>
  ({ name, publicTool: { name, description, inputSchema: { type: 'object' } }, routeToken }) as unknown as ToolDefinition;

function catalogueOf(generation: () => CatalogueGeneration): ToolCatalogue {
  return {
    current: generation,
    ensureLoaded: () => Promise.resolve(generation()),
    refreshForUnknownTool: () => Promise.resolve(generation()),
    reportStaleTool: () => undefined,
  };
}

const context = {} as RequestContext;
const names = (tools: readonly ToolDefinition[]) => tools.map((t) => t.name);

describe('CatalogueSearch', () => {
  const invoices = tool('billing_export_invoice', 'Exports the invoices of the billing ledger');
  const refunds = tool('billing_export_refund', 'Exports the refunds of the billing ledger');
  const tickets = tool('support_list_ticket', 'Lists the tickets of the helpdesk queue', 'r2');

  it('follows the generation in memory: a route whose tools changed is searched in its new form', async () => {
    let generation = new CatalogueGeneration(1, [invoices, refunds, tickets]);
    const search = new CatalogueSearch(catalogueOf(() => generation));
    const first = await search.generation();
    expect(names(search.search(first as CatalogueGeneration, 'helpdesk tickets', 5, context))).toEqual(['support_list_ticket']);

    // Route r2 changed, r1 kept its tool objects: found by the new text, the old one gone.
    const incidents = tool('support_list_incident', 'Lists the incidents of the service desk', 'r2');
    generation = new CatalogueGeneration(2, [invoices, refunds, incidents]);
    const second = (await search.generation()) as CatalogueGeneration;
    expect(second.number).toBe(2);
    expect(search.search(second, 'helpdesk tickets', 5, context)).toEqual([]);
    expect(names(search.search(second, 'service desk incidents', 5, context))).toEqual(['support_list_incident']);
    expect(names(search.search(second, 'billing ledger', 5, context)).sort()).toEqual(['billing_export_invoice', 'billing_export_refund']);
  });

  it('leaves out what the caller may not see before the limit counts (the authorization seam)', async () => {
    const generation = new CatalogueGeneration(1, [invoices, refunds, tickets]);
    const search = new CatalogueSearch(
      catalogueOf(() => generation),
      (found) => found.name !== 'billing_export_invoice',
    );
    await search.generation();
    expect(names(search.search(generation, 'export invoices billing', 1, context))).toEqual(['billing_export_refund']);
  });

  it('waits for the first index only: while a big new generation is indexed, searches answer from the one before', async () => {
    let generation = new CatalogueGeneration(1, [invoices, refunds, tickets]);
    const search = new CatalogueSearch(catalogueOf(() => generation));
    await search.generation();
    // Generation 2: 10,000 tools, the invoices tool the same object, the refunds tool gone.
    const big = syntheticTools(10_000)
      .filter((t) => t.name !== invoices.name && t.name !== refunds.name)
      .map((t) => tool(t.name, t.description));
    generation = new CatalogueGeneration(2, [invoices, ...big]);
    const indexed = search.reindex(generation);
    expect(await search.generation()).toBe(generation); // not held until generation 2 is indexed
    const restore = 'restore archived contracts of the contract repository';
    // Ranked in generation 1's index, answered from generation 2: the refunds tool, gone from it, is left out.
    expect(names(search.search(generation, 'export billing ledger', 5, context))).toEqual(['billing_export_invoice']);
    expect(search.search(generation, restore, 5, context)).toEqual([]);
    await indexed;
    expect(names(search.search(generation, restore, 1, context))).toEqual(['legal_restore_contract']);
    expect(search.search(generation, 'export billing ledger', 5, context)).toHaveLength(5);
  });
});
