import { monitorEventLoopDelay } from 'node:perf_hooks';

import { syntheticTools } from '@toolmesh/test-peers/synthetic-tool-catalogue';

import { type SearchableTool, ToolSearchIndex } from './tool-search-index';

const tool = (name: string, description: string, parameters: string[] = []): SearchableTool => ({
  name,
  description,
  inputSchema: { type: 'object', properties: Object.fromEntries(parameters.map((p) => [p, { type: 'string' }])) },
});

const names = (tools: readonly SearchableTool[]) => tools.map((t) => t.name);

describe('ToolSearchIndex', () => {
  const invoices = tool('billing_export_invoice', 'Exports the invoices of the billing ledger as a CSV file', ['invoiceId', 'format']);
  const tickets = tool('support_list_ticket', 'Lists the tickets of the helpdesk queue', ['ticketId']);
  const weather = tool('getForecast', 'The weather for a city', ['cityName']);

  it('ranks by name words, parameter names and description; a query word may be the start of a longer one', () => {
    const index = new ToolSearchIndex<SearchableTool>();
    index.sync([invoices, tickets, weather]);
    expect(names(index.search('export invoices csv', 5))[0]).toBe('billing_export_invoice');
    expect(names(index.search('helpdesk tick', 5))).toEqual(['support_list_ticket']);
    expect(names(index.search('forecast', 5))).toEqual(['getForecast']); // camelCase split into words
    expect(names(index.search('city', 5))).toEqual(['getForecast']); // a parameter's name
    expect(index.search('the of a', 5)).toEqual([]); // only stop words
  });

  it('returns at most `limit` tools, leaving out those `accept` refuses before the limit counts', () => {
    const index = new ToolSearchIndex<SearchableTool>();
    index.sync([invoices, tickets, weather]);
    expect(index.search('the', 5)).toEqual([]);
    expect(names(index.search('export lists weather', 1))).toHaveLength(1);
    expect(names(index.search('export lists', 1, (t) => t.name !== 'billing_export_invoice'))).toEqual(['support_list_ticket']);
  });

  it('sync follows a new list by identity: a replaced tool is found by its new text only, a removed one no more', () => {
    const index = new ToolSearchIndex<SearchableTool>();
    index.sync([invoices, tickets]);
    const renamedTickets = tool('support_list_ticket', 'Lists the incidents reported to the service desk');
    index.sync([renamedTickets, weather]);
    expect(index.size).toBe(2);
    expect(index.search('helpdesk', 5)).toEqual([]);
    expect(index.search('incidents', 5)).toEqual([renamedTickets]);
    expect(index.search('invoices', 5)).toEqual([]);
    expect(names(index.search('weather', 5))).toEqual(['getForecast']);
  });

  it('a new object with the same text replaces its predecessor in the results', () => {
    const index = new ToolSearchIndex<SearchableTool>();
    index.sync([invoices, tickets]);
    const reloaded = { ...invoices, annotations: { readOnlyHint: true } };
    index.sync([reloaded, tickets]);
    expect(index.search('invoices', 5)).toEqual([reloaded]);
    expect(index.size).toBe(2);
  });

  it('ranks a tool that matches more of the query words above one that matches one of them often', () => {
    const index = new ToolSearchIndex<SearchableTool>();
    const often = tool('refund_refund', 'Refunds a refund; refunds refunds.');
    const both = tool('export_refund', 'Exports one refund');
    index.sync([often, both]);
    expect(names(index.search('export refund', 5))).toEqual(['export_refund', 'refund_refund']);
  });

  it('keeps ranking as tools come and go (removed tools leave the index entirely, eight rounds over)', () => {
    const index = new ToolSearchIndex<SearchableTool>();
    const catalogue = syntheticTools(1_000);
    for (let round = 0; round < 8; round++) {
      // Each round replaces half the catalogue with new objects of new text, so removals pile up and are compacted.
      const changed = catalogue.map((t, i) => (i % 2 === round % 2 ? { ...t, description: `${t.description} Round ${round}.` } : t));
      index.sync(changed);
      expect(index.size).toBe(1_000);
      expect(names(index.search('export invoices billing ledger csv', 1))).toEqual(['billing_export_invoice']);
    }
    index.sync(catalogue.slice(0, 10));
    expect(index.size).toBe(10);
    expect(names(index.search('export invoices billing ledger', 20)).every((name) => name.startsWith('billing_'))).toBe(true);
    expect(index.search('crm customers', 20).filter((t) => t.name.startsWith('crm_'))).toEqual([]);
  });
});

describe('ToolSearchIndex.syncInSlices', () => {
  const catalogue = syntheticTools(10_000);
  const query = 'export the invoices of the billing ledger as a csv spreadsheet';

  /** The event loop's longest stall, in milliseconds, while `indexing` runs. */
  async function longestStall(indexing: () => unknown): Promise<number> {
    const delay = monitorEventLoopDelay({ resolution: 1 });
    delay.enable();
    await new Promise((resolve) => setTimeout(resolve, 20)); // the monitor records from its second tick on
    await indexing();
    await new Promise((resolve) => setTimeout(resolve, 20)); // the loop turns, and the last stall is sampled
    delay.disable();
    return delay.max / 1e6;
  }

  it('indexes 10,000 tools without holding the event loop: the longest stall is a fraction of a sync at once', async () => {
    const index = new ToolSearchIndex<SearchableTool>();
    const inSlices = await longestStall(() => index.syncInSlices(catalogue));
    const atOnce = await longestStall(() => new ToolSearchIndex<SearchableTool>().sync(catalogue));
    // At once, the loop is held for the whole indexing (0.25 s quiet, over 1 s with the machine shared); in
    // slices, for a slice of a few milliseconds or a garbage collection. Compared in one run, as the load varies.
    expect(inSlices).toBeLessThan(atOnce / 2);
    expect(index.size).toBe(10_000);
    expect(names(index.search(query, 1))).toEqual(['billing_export_invoice']);
  });

  it('answers from the list before until the new one is in, and a list asked for meanwhile follows', async () => {
    const index = new ToolSearchIndex<SearchableTool>();
    await index.syncInSlices(catalogue.slice(0, 3)); // small syncs end at once, one after the other
    await index.syncInSlices(catalogue.slice(0, 5));
    expect(index.size).toBe(5);
    const renamed = catalogue.map((t) => (t.name === 'billing_list_invoice' ? { ...t, description: 'Lists the bills of the ledger' } : t));
    const indexing = index.syncInSlices(catalogue);
    expect(index.size).toBe(5); // a slice is done, far from all
    // The tool that ranks first in the new list is not found yet: the old list's best is.
    expect(names(index.search(query, 1))).toEqual(['billing_list_invoice']);
    const following = index.syncInSlices(renamed);
    await indexing;
    await following;
    expect(index.size).toBe(10_000);
    expect(names(index.search('bills', 5))).toEqual(['billing_list_invoice']);
    expect(names(index.search(query, 1))).toEqual(['billing_export_invoice']);
  });
});
