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
});
