import { canonicalDefinition, DEFINITION_HASH_META_KEY, definitionHash } from '@toolmesh/protocol';
import { DocumentServer } from '@toolmesh/test-peers/document-server';
import { syntheticTools } from '@toolmesh/test-peers/synthetic-tool-catalogue';
import queries from '@toolmesh/test-peers/tool-search-queries.json';

import type { GatewayConfig } from '../config/gateway-config';
import { startTestGateway, type TestGateway } from '../test-support/test-gateway';

/**
 * `search_tools` (G30, docs/gateway.md "Searching the catalogue"): an in-process gateway in front of a
 * real HTTP tool service whose manifest offers 10,000 tools, with `mcp.toolSearch` on. The fixed query set
 * (tools/test/tool-search-queries.json, written from the descriptions) must each find its tool in the
 * top 5; results are the tools' real definitions, in both eras; `tools/list` is the catalogue's with
 * `search_tools` first.
 */
const TOOL_COUNT = 10_000;
const CATALOGUE = syntheticTools(TOOL_COUNT);
const MANIFEST = { revision: 'synthetic-10000', tools: CATALOGUE.map((tool) => ({ ...tool, endpoint: `/tools/${tool.name}` })) };
const VERSION_2026 = '2026-07-28';
const META_2026 = { 'io.modelcontextprotocol/protocolVersion': VERSION_2026, 'io.modelcontextprotocol/clientCapabilities': {} };

interface Listed {
  name: string;
  [field: string]: unknown;
}
/** A manifest's tool as the gateway lists it: with the hash of its definition in `_meta` (issue 46). */
const served = (tool: { name: string } | undefined) =>
  tool && { ...tool, _meta: { [DEFINITION_HASH_META_KEY]: definitionHash(canonicalDefinition({ ...tool })) } };
interface SearchResult {
  content: Array<{ type: string; text: string }>;
  structuredContent?: { tools: Listed[] };
  isError: boolean;
  resultType?: string;
}

function bigCatalogue(config: GatewayConfig): void {
  config.mcp.toolSearch = true;
  config.mcp.catalogue = { ...config.mcp.catalogue, maxTools: TOOL_COUNT, maxSerializedBytes: 64 << 20, maxManifestBytes: 64 << 20 };
}

describe('search_tools over a catalogue of 10,000 tools', () => {
  let service: DocumentServer;
  let gateway: TestGateway;

  beforeAll(async () => {
    service = await new DocumentServer().start();
    service.serve('/tool-manifest', { json: MANIFEST });
    gateway = await startTestGateway(service.url, bigCatalogue);
    await gateway.rpc('tools/list'); // the first request waits for the catalogue's first load
  }, 120_000);
  afterAll(async () => {
    await gateway?.stop();
    await service?.stop();
  });

  const search = async (args: Record<string, unknown>) =>
    (await gateway.rpc('tools/call', { name: 'search_tools', arguments: args })).result as unknown as SearchResult;

  it('finds the tool each query of the fixed set was written for in its top 5', async () => {
    const misses: string[] = [];
    for (const { query, tool } of queries.queries) {
      const found = (await search({ query, limit: 5 })).structuredContent?.tools.map((t) => t.name) ?? [];
      if (!found.includes(tool)) misses.push(`${query} -> ${found.join(', ')} (wanted ${tool})`);
    }
    expect(misses).toEqual([]);
    expect(queries.queries.length).toBeGreaterThanOrEqual(20);
  });

  it("answers with the tools' real definitions, as tools/list shows them, also as JSON text", async () => {
    const result = await search({ query: 'export invoices billing ledger csv' });
    expect(result.isError).toBe(false);
    const tools = result.structuredContent?.tools ?? [];
    expect(tools.length).toBeGreaterThan(0);
    expect(tools.length).toBeLessThanOrEqual(10); // the default limit
    const wanted = CATALOGUE.find((tool) => tool.name === 'billing_export_invoice');
    expect(tools[0]).toEqual(served(wanted));
    expect(JSON.parse(result.content[0].text)).toEqual({ tools });
  });

  it('lists search_tools first and then the catalogue, page by page, as without it', async () => {
    const first = (await gateway.rpc('tools/list')).result as unknown as { tools: Listed[]; nextCursor?: string };
    expect(first.tools[0]).toMatchObject({
      name: 'search_tools',
      inputSchema: { required: ['query'] },
      annotations: { readOnlyHint: true },
    });
    expect(first.tools.slice(1)).toEqual(CATALOGUE.slice(0, first.tools.length - 1).map(served));
    const second = (await gateway.rpc('tools/list', { cursor: first.nextCursor })).result as unknown as { tools: Listed[] };
    expect(second.tools.map((t) => t.name)).not.toContain('search_tools');
    expect(second.tools[0]).toEqual(served(CATALOGUE[first.tools.length - 1]));
  });

  it('refuses bad arguments with an isError result, as any tool does', async () => {
    for (const args of [{}, { query: '' }, { query: 'x', limit: 0 }, { query: 'x', limit: 51 }, { query: 'x'.repeat(1_001) }]) {
      const result = await search(args);
      expect(result).toMatchObject({
        isError: true,
        content: [{ type: 'text', text: expect.stringMatching(/^invalid arguments for search_tools: /) }],
      });
    }
  });

  it('answers a 2026-07-28 request too, with resultType complete', async () => {
    const res = await fetch(gateway.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': VERSION_2026,
        'mcp-method': 'tools/call',
        'mcp-name': 'search_tools',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: {
          _meta: META_2026,
          name: 'search_tools',
          arguments: { query: 'restore archived contracts of the contract repository', limit: 3 },
        },
      }),
    });
    const body = (await res.json()) as { result: SearchResult };
    expect(res.status).toBe(200);
    expect(body.result.resultType).toBe('complete');
    expect(body.result.structuredContent?.tools.map((t) => t.name)).toContain('legal_restore_contract');
  });
});

describe('search_tools off (the default)', () => {
  const few = CATALOGUE.slice(0, 5);
  let service: DocumentServer;
  let gateway: TestGateway;

  beforeAll(async () => {
    service = await new DocumentServer().start();
    service.serve('/tool-manifest', {
      json: { revision: 'five', tools: few.map((tool) => ({ ...tool, endpoint: `/tools/${tool.name}` })) },
    });
    gateway = await startTestGateway(service.url);
  });
  afterAll(async () => {
    await gateway?.stop();
    await service?.stop();
  });

  it('is neither listed nor callable', async () => {
    const first = (await gateway.rpc('tools/list')).result as unknown as { tools: Listed[] };
    expect(first.tools).toEqual(few.map(served));
    const call = await gateway.rpc('tools/call', { name: 'search_tools', arguments: { query: 'invoices' } });
    expect(call.error).toMatchObject({ message: 'Unknown tool: search_tools' });
  });
});

describe('search_tools follows the catalogue', () => {
  const first = CATALOGUE.slice(0, 5);
  const manifestOf = (revision: string, tools: typeof CATALOGUE) => ({
    revision,
    tools: tools.map((tool) => ({ ...tool, endpoint: `/tools/${tool.name}` })),
  });
  let service: DocumentServer;
  let gateway: TestGateway;

  beforeAll(async () => {
    service = await new DocumentServer().start();
    service.serve('/tool-manifest', { json: manifestOf('first', first) });
    gateway = await startTestGateway(service.url, (config) => (config.mcp.toolSearch = true));
  });
  afterAll(async () => {
    await gateway?.stop();
    await service?.stop();
  });

  const found = async (query: string) =>
    (
      (await gateway.rpc('tools/call', { name: 'search_tools', arguments: { query } })).result as unknown as SearchResult
    ).structuredContent?.tools.map((t) => t.name);

  it("finds a route's new tools and no more its removed ones once the new manifest is installed", async () => {
    expect(await found('invoices billing ledger')).toContain('billing_list_invoice');
    const restore = CATALOGUE.find((tool) => tool.name === 'legal_restore_contract');
    service.serve('/tool-manifest', { json: manifestOf('second', [...first.slice(1), restore as (typeof CATALOGUE)[number]]) });
    const refresh = await fetch(`${gateway.gateway.managementUrl}/actuator/toolBundles/sample/refresh`, { method: 'POST' });
    expect(((await refresh.json()) as { manifestRevision?: string }).manifestRevision).toBe('second');
    expect(await found('restore archived contracts')).toEqual(['legal_restore_contract']);
    expect(await found('invoices billing ledger')).not.toContain('billing_list_invoice');
  });
});
