import { DocumentServer } from '@toolmesh/test-peers/document-server';

import { startTestGateway, type TestGateway } from '../test-support/test-gateway';

const MODERN_META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
const NAMES = Array.from({ length: 25 }, (_, i) => `tool_${String(i).padStart(2, '0')}`);
const OBJECT_OUTPUT = { type: 'object', properties: { id: { type: 'string' }, total: { type: 'integer' } }, required: ['id', 'total'] };
const ARRAY_OUTPUT = { type: 'array', items: { type: 'string' } };

const manifest = {
  revision: 'r1',
  tools: [
    ...NAMES.map((name) => ({ name, inputSchema: { type: 'object' }, endpoint: `/tools/${name}` })),
    { name: 'order_total', inputSchema: { type: 'object' }, outputSchema: OBJECT_OUTPUT, endpoint: '/tools/order_total' },
    { name: 'broken_total', inputSchema: { type: 'object' }, outputSchema: OBJECT_OUTPUT, endpoint: '/tools/broken_total' },
    { name: 'tags', inputSchema: { type: 'object' }, outputSchema: ARRAY_OUTPUT, endpoint: '/tools/tags' },
  ],
};

type Era = 'legacy' | 'modern';
interface Reply {
  result?: {
    tools?: Array<{ name: string; outputSchema?: unknown }>;
    nextCursor?: string;
    content?: Array<{ text: string }>;
    structuredContent?: unknown;
    isError?: boolean;
  };
  error?: { code: number };
}

describe('tools/list pages and outputSchema, in both eras (SPEC G22, G25)', () => {
  let service: DocumentServer;
  let gateway: TestGateway;
  beforeAll(async () => {
    service = await new DocumentServer().start();
    service
      .serve('/tool-manifest', { json: manifest })
      .serve('/tools/order_total', { json: { data: { id: 'o-1', total: 42 } } })
      .serve('/tools/broken_total', { json: { data: { id: 'o-1', total: 'forty-two' } } })
      .serve('/tools/tags', { json: { data: ['a', 'b'] } });
    gateway = await startTestGateway(service.url, (config) => {
      config.mcp.catalogue.toolsListPageSize = 10;
    });
  });
  afterAll(async () => {
    await gateway.stop();
    await service.stop();
  });

  async function rpc(era: Era, method: string, params: Record<string, unknown>): Promise<Reply> {
    if (era === 'legacy') return (await gateway.rpc(method, params)) as Reply;
    const name: Record<string, string> = typeof params.name === 'string' ? { 'mcp-name': params.name } : {};
    const res = await gateway.post(
      { jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: MODERN_META } },
      { 'mcp-protocol-version': '2026-07-28', 'mcp-method': method, ...name },
    );
    return (await res.json()) as Reply;
  }

  async function listAll(era: Era): Promise<{ pages: number; tools: Array<{ name: string; outputSchema?: unknown }> }> {
    const tools: Array<{ name: string; outputSchema?: unknown }> = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const reply = await rpc(era, 'tools/list', cursor === undefined ? {} : { cursor });
      tools.push(...(reply.result?.tools ?? []));
      cursor = reply.result?.nextCursor;
      pages += 1;
    } while (cursor !== undefined && pages < 10);
    return { pages, tools };
  }

  it.each<Era>(['legacy', 'modern'])('%s: pages a long list with opaque cursors, in manifest order, every tool once', async (era) => {
    const { pages, tools } = await listAll(era);
    expect(pages).toBe(3);
    expect(tools.map((tool) => tool.name)).toEqual(manifest.tools.map((tool) => tool.name));
    // The same cursor gives the same page (deterministic, nothing kept per client).
    const first = await rpc(era, 'tools/list', {});
    const again = async () => (await rpc(era, 'tools/list', { cursor: first.result?.nextCursor })).result;
    expect(await again()).toEqual(await again());
  });

  it.each<Era>(['legacy', 'modern'])('%s: a cursor it did not issue is -32602', async (era) => {
    for (const cursor of [
      'bogus',
      Buffer.from('toolmesh-page:99').toString('base64url'),
      Buffer.from('toolmesh-page:0').toString('base64url'),
      '',
    ]) {
      expect((await rpc(era, 'tools/list', { cursor })).error?.code).toBe(-32602);
    }
  });

  it.each<Era>(['legacy', 'modern'])(
    '%s: a walk over a list that changed between pages (a tool added, one removed) is refused with -32602, never a tool repeated or skipped',
    async (era) => {
      const first = await rpc(era, 'tools/list', {});
      // One added in front and one removed at the end: page 2 of the new list would repeat page 1's last tool.
      const added = { ...manifest.tools[0], name: 'tool_new', endpoint: '/tools/tool_new' };
      const changed = { ...manifest, revision: `r-${era}`, tools: [added, ...manifest.tools.slice(0, -1)] };
      service.serve('/tool-manifest', { json: changed });
      try {
        await refreshed(() => listAll(era).then(({ tools }) => tools.some((tool) => tool.name === 'tool_new')));
        const next = await rpc(era, 'tools/list', { cursor: first.result?.nextCursor });
        expect(next.error?.code).toBe(-32602);
        const walk = (await listAll(era)).tools.map((tool) => tool.name);
        expect(walk).toEqual(changed.tools.map((tool) => tool.name));
      } finally {
        service.serve('/tool-manifest', { json: manifest });
        await refreshed(() => listAll(era).then(({ tools }) => !tools.some((tool) => tool.name === 'tool_new')));
      }
    },
  );

  /** Asks the catalogue to refresh the bundle (the management endpoint) until `done` says the new list is served. */
  async function refreshed(done: () => Promise<boolean>): Promise<void> {
    for (let tries = 0; tries < 100; tries += 1) {
      await fetch(`${gateway.gateway.managementUrl}/actuator/toolBundles/sample/refresh`, { method: 'POST' });
      if (await done()) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('the catalogue did not take the new manifest');
  }

  it('shows an outputSchema that is not an object wrapped for 2025 clients, as written for 2026 ones', async () => {
    const schemaOf = (tools: Array<{ name: string; outputSchema?: unknown }>, name: string) =>
      tools.find((tool) => tool.name === name)?.outputSchema;
    const legacy = (await listAll('legacy')).tools;
    const modern = (await listAll('modern')).tools;
    expect(schemaOf(legacy, 'order_total')).toEqual(OBJECT_OUTPUT);
    expect(schemaOf(modern, 'order_total')).toEqual(OBJECT_OUTPUT);
    expect(schemaOf(modern, 'tags')).toEqual(ARRAY_OUTPUT);
    expect(schemaOf(legacy, 'tags')).toEqual({ type: 'object', properties: { result: ARRAY_OUTPUT }, required: ['result'] });
  });

  it.each<Era>(['legacy', 'modern'])('%s: returns a JSON reply as structuredContent, with its JSON as text too', async (era) => {
    const reply = await rpc(era, 'tools/call', { name: 'order_total', arguments: {} });
    expect(reply.result).toMatchObject({
      isError: false,
      structuredContent: { id: 'o-1', total: 42 },
      content: [{ text: '{"id":"o-1","total":42}' }],
    });
  });

  it('wraps a non-object structuredContent for 2025 clients only', async () => {
    expect((await rpc('legacy', 'tools/call', { name: 'tags', arguments: {} })).result?.structuredContent).toEqual({ result: ['a', 'b'] });
    expect((await rpc('modern', 'tools/call', { name: 'tags', arguments: {} })).result?.structuredContent).toEqual(['a', 'b']);
  });

  it.each<Era>(['legacy', 'modern'])('%s: a reply that breaks the outputSchema is an isError result naming the field', async (era) => {
    const reply = await rpc(era, 'tools/call', { name: 'broken_total', arguments: {} });
    expect(reply.result?.isError).toBe(true);
    expect(reply.result?.structuredContent).toBeUndefined();
    expect(reply.result?.content?.[0].text).toContain('structuredContent.total must be integer');
  });
});
