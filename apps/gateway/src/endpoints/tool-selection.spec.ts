import { ANNOTATIONS_CLAIM_META_KEY, canonicalDefinition, DEFINITION_HASH_META_KEY, definitionHash } from '@toolmesh/protocol';
import { CatalogueGeneration, type ToolDefinition } from '@toolmesh/registry';

import type { EndpointSettings } from '../config/endpoint-settings';
import { testTool } from '../test-support/test-tool';
import { CuratedCatalogue } from './curated-catalogue';
import { OPERATOR_META_KEY, ToolSelection } from './tool-selection';

const tool = (name: string, routeToken: string, extra: Partial<ToolDefinition> = {}): ToolDefinition =>
  testTool(name, { publicTool: { name, description: `${name} as its owner says`, inputSchema: { type: 'object' } }, routeToken, ...extra });
const CATALOGUE = [
  tool('customer_lookup', 'sample'),
  tool('order_search', 'sample'),
  tool('order_cancel', 'sample'),
  tool('getPetById', 'pets', { tags: ['pet'] }),
  tool('placeOrder', 'pets', { tags: ['store'] }),
  tool('ev_echo', 'everything', {
    publicTool: {
      name: 'ev_echo',
      inputSchema: { type: 'object' },
      annotations: { readOnlyHint: true },
      _meta: { [ANNOTATIONS_CLAIM_META_KEY]: { claimedBy: 'mcp-server', bundle: 'everything' }, 'example.com/owner': 'a' },
    },
  }),
];
const generation = new CatalogueGeneration(7, CATALOGUE);
const curate = (endpoint: Partial<EndpointSettings>, from = generation) =>
  new ToolSelection({ name: 'support', serve: [], ...endpoint }, 100).curate(from);
const shown = (endpoint: Partial<EndpointSettings>) => [...curate(endpoint).generation.tools.keys()];

describe("a curated endpoint's tools (issue 46)", () => {
  it('selects by bundle, by name, by pattern and by OpenAPI tag, in the catalogue order', () => {
    expect(shown({ serve: [{ tools: 'customer_lookup' }] })).toEqual(['customer_lookup']);
    expect(shown({ serve: [{ bundle: 'pets' }] })).toEqual(['getPetById', 'placeOrder']);
    expect(shown({ serve: [{ tag: 'store' }, { tools: 'order_*' }] })).toEqual(['order_search', 'order_cancel', 'placeOrder']);
    expect(shown({ serve: [{ bundle: 'payroll' }, { tag: 'none' }, { tools: 'x*' }] })).toEqual([]);
  });

  it('is the catalogue generation itself when it selects every tool unchanged', () => {
    expect(curate({ serve: [{ tools: '*' }] }).generation).toBe(generation);
  });

  it('shows an aliased tool under its alias only, with the tool kept whole for the gateway', () => {
    const curated = curate({ serve: [{ bundle: 'sample' }], overrides: { customer_lookup: { name: 'find_customer' } } }).generation;
    expect([...curated.tools.keys()]).toEqual(['find_customer', 'order_search', 'order_cancel']);
    expect(curated.tools.has('customer_lookup')).toBe(false);
    const aliased = curated.tools.get('find_customer');
    // The catalogue name stays what authorization policies, per-tool limits, slots and logs know it by.
    expect(aliased).toMatchObject({ name: 'customer_lookup', endpoint: CATALOGUE[0].endpoint, routeToken: 'sample' });
    expect(aliased?.publicTool).toEqual({
      name: 'find_customer',
      description: 'customer_lookup as its owner says',
      inputSchema: { type: 'object' },
      _meta: { [OPERATOR_META_KEY]: { endpoint: 'support', changed: ['name'], aliasOf: 'customer_lookup' } },
    });
    expect(JSON.parse(curated.toolsListResult.json).tools.map((t: { name: string }) => t.name)).toEqual([
      'find_customer',
      'order_search',
      'order_cancel',
    ]);
  });

  it("marks overridden words as the operator's, and takes an MCP server's claim away with the annotations it replaces", () => {
    const curated = curate({
      serve: [{ bundle: 'everything' }, { tools: 'order_search' }],
      overrides: {
        ev_echo: { description: 'Echoes, as the platform team puts it', annotations: { readOnlyHint: true, openWorldHint: false } },
        order_search: { description: 'Finds orders' },
      },
    }).generation;
    expect(curated.tools.get('ev_echo')?.publicTool).toEqual({
      name: 'ev_echo',
      description: 'Echoes, as the platform team puts it',
      inputSchema: { type: 'object' },
      annotations: { readOnlyHint: true, openWorldHint: false },
      _meta: { 'example.com/owner': 'a', [OPERATOR_META_KEY]: { endpoint: 'support', changed: ['description', 'annotations'] } },
    });
    expect(curated.tools.get('order_search')?.publicTool._meta).toEqual({
      [OPERATOR_META_KEY]: { endpoint: 'support', changed: ['description'] },
    });
  });

  it('serves the aliased tool when a pattern selects another of that name, and says which it left out', () => {
    const { generation: curated, leftOut } = curate({
      serve: [{ bundle: 'sample' }],
      overrides: { order_cancel: { name: 'order_search' } },
    });
    expect([...curated.tools.values()].map((t) => t.name)).toEqual(['customer_lookup', 'order_cancel']);
    expect(leftOut).toEqual([
      { tool: 'order_search', shownAs: 'order_search', reason: 'the endpoint shows tool order_cancel under this name' },
    ]);
  });

  it('hashes an overridden definition as it is shown, where the catalogue hashes definitions', () => {
    const hashed = tool('order_search', 'sample', {
      publicTool: { name: 'order_search', inputSchema: { type: 'object' }, _meta: { [DEFINITION_HASH_META_KEY]: 'sha256:old' } },
    });
    const curated = curate(
      { serve: [{ bundle: 'sample' }], overrides: { order_search: { name: 'orders' } } },
      new CatalogueGeneration(1, [hashed]),
    );
    const { _meta, ...definition } = curated.generation.tools.get('orders')?.publicTool as Record<string, unknown>;
    expect((_meta as Record<string, unknown>)[DEFINITION_HASH_META_KEY]).toBe(definitionHash(canonicalDefinition(definition as never)));
  });

  it('makes an overridden tool once per catalogue object, so identity-keyed caches keep it', () => {
    const selection = new ToolSelection(
      { name: 'support', serve: [{ bundle: 'sample' }], overrides: { order_search: { description: 'x' } } },
      100,
    );
    const first = selection.curate(generation).generation.tools.get('order_search');
    expect(selection.curate(new CatalogueGeneration(8, CATALOGUE)).generation.tools.get('order_search')).toBe(first);
  });
});

describe('CuratedCatalogue', () => {
  function liveCatalogue() {
    let current: CatalogueGeneration | undefined = generation;
    const listeners = new Set<(generation: CatalogueGeneration) => void>();
    return {
      current: () => current,
      ensureLoaded: async () => current,
      refreshForUnknownTool: async () => current,
      reportStaleTool: () => undefined,
      refreshAll: async () => current,
      onToolsListChanged: (listener: (generation: CatalogueGeneration) => void) => (
        listeners.add(listener),
        () => listeners.delete(listener)
      ),
      install(next: CatalogueGeneration) {
        current = next;
        for (const listener of listeners) listener(next);
      },
    };
  }

  it('curates each generation once, and tells its listeners only of changes to its own subset', () => {
    const live = liveCatalogue();
    const curated = new CuratedCatalogue(live, new ToolSelection({ name: 'support', serve: [{ tools: 'customer_lookup' }] }, 100));
    expect(curated.current()).toBe(curated.current());
    const told: string[][] = [];
    curated.onToolsListChanged((changed) => told.push([...changed.tools.keys()]));

    live.install(new CatalogueGeneration(8, [...CATALOGUE, tool('order_refund', 'sample')]));
    expect(told).toEqual([]);
    live.install(
      new CatalogueGeneration(9, [
        tool('customer_lookup', 'sample', { publicTool: { name: 'customer_lookup', inputSchema: { type: 'object' }, description: 'new' } }),
      ]),
    );
    expect(told).toEqual([['customer_lookup']]);
    live.install(new CatalogueGeneration(10, []));
    expect(told).toEqual([['customer_lookup'], []]);
  });
});
