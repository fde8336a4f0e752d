import type { Server, ServerResponse } from 'node:http';

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as StreamableHTTPClientTransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { spawnEverythingGateway } from '@toolmesh/test-peers/federating-gateway';
import { spawnGateway, writeGatewayConfig } from '@toolmesh/test-peers/gateway-process';
import { type Everything, startEverything, startStalledServer } from '@toolmesh/test-peers/mcp-servers';
import { until } from '@toolmesh/test-peers/process-table';
import type { ServerProcess } from '@toolmesh/test-peers/server-process';

/**
 * Resources and prompts of MCP servers served by the built gateway (issue 28): two server-everything
 * processes (2025, Streamable HTTP) behind it under the prefixes `ev_` and `tw_`, and one server that never
 * answers; and a second gateway with the first server alone, whose tool results' resource links a client
 * reads back by the server's own URIs. The SDK v1 client speaks 2025 to the gateways, the v2 client
 * 2026-07-28; both see the same.
 */
const PAGE_SIZE = 4;

/** What either SDK client offers for resources and prompts (their request and result types differ only in detail). */
interface FeatureClient {
  readonly era: string;
  capabilities(): Record<string, unknown> | undefined;
  listResources(cursor?: string): Promise<{ resources: Array<{ uri: string; name: string }>; nextCursor?: string }>;
  listResourceTemplates(): Promise<{ resourceTemplates: Array<{ uriTemplate: string; name: string }>; nextCursor?: string }>;
  readResource(uri: string): Promise<{ contents: Array<Record<string, unknown>> }>;
  listPrompts(cursor?: string): Promise<{ prompts: Array<{ name: string; arguments?: unknown }>; nextCursor?: string }>;
  getPrompt(name: string, args?: Record<string, string>): Promise<{ messages: Array<{ role: string; content: Record<string, unknown> }> }>;
  callTool(name: string, args: Record<string, unknown>): Promise<{ content: Array<Record<string, unknown>> }>;
  close(): Promise<void>;
}

async function v1Client(url: string): Promise<FeatureClient> {
  const client = new ClientV1({ name: 'sdk-v1', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransportV1(new URL(url)));
  return {
    era: '2025 (SDK v1)',
    capabilities: () => client.getServerCapabilities(),
    listResources: (cursor) => client.listResources(cursor === undefined ? undefined : { cursor }),
    listResourceTemplates: () => client.listResourceTemplates(),
    readResource: (uri) => client.readResource({ uri }),
    listPrompts: (cursor) => client.listPrompts(cursor === undefined ? undefined : { cursor }),
    getPrompt: (name, args) => client.getPrompt({ name, ...(args && { arguments: args }) }) as ReturnType<FeatureClient['getPrompt']>,
    callTool: (name, args) => client.callTool({ name, arguments: args }) as ReturnType<FeatureClient['callTool']>,
    close: () => client.close(),
  };
}

async function v2Client(url: string): Promise<FeatureClient> {
  const client = new Client({ name: 'sdk-v2', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return {
    era: '2026-07-28 (SDK v2)',
    capabilities: () => client.getServerCapabilities() as Record<string, unknown> | undefined,
    listResources: (cursor) => client.listResources(cursor === undefined ? undefined : { cursor }),
    listResourceTemplates: () => client.listResourceTemplates(),
    readResource: (uri) => client.readResource({ uri }) as ReturnType<FeatureClient['readResource']>,
    listPrompts: (cursor) => client.listPrompts(cursor === undefined ? undefined : { cursor }),
    getPrompt: (name, args) => client.getPrompt({ name, ...(args && { arguments: args }) }) as ReturnType<FeatureClient['getPrompt']>,
    callTool: (name, args) => client.callTool({ name, arguments: args }) as ReturnType<FeatureClient['callTool']>,
    close: () => client.close(),
  };
}

/**
 * Every page of a list, following the gateway's cursors: the v1 client asks page by page; the v2 client
 * walks them itself when asked without a cursor, so its one answer is every page already.
 */
async function allPages<T>(
  list: (cursor?: string) => Promise<{ nextCursor?: string } & Record<string, unknown>>,
  member: string,
): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  do {
    const page = await list(cursor);
    items.push(...(page[member] as T[]));
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return items;
}

describe('resources and prompts of MCP servers, through the gateway (issue 28)', () => {
  let everything: Everything;
  let twin: Everything;
  let stalled: { url: string; server: Server };
  /** Requests of the gateway the stalled server holds unanswered right now. */
  let stalledHolds = 0;
  let front: ServerProcess & { match: RegExpExecArray };
  /** A gateway with the first server-everything alone (`ev_`): its URIs without the namespace name one server. */
  let single: ServerProcess & { match: RegExpExecArray };
  let direct: FeatureClient;
  const clients: FeatureClient[] = [];
  const singleClients: FeatureClient[] = [];

  beforeAll(async () => {
    [everything, twin, stalled] = await Promise.all([startEverything(), startEverything(), startStalledServer()]);
    stalled.server.on('request', (_request, response: ServerResponse) => {
      stalledHolds += 1;
      response.on('close', () => (stalledHolds -= 1));
    });
    const file = writeGatewayConfig(
      `server: { port: 0, managementPort: 0 }
mcp:
  shutdownDrainMillis: 1000
  catalogue: { manifestTimeoutMillis: 3000, refreshTtlMillis: 1000, toolsListPageSize: ${PAGE_SIZE} }
  bundles:
    - { name: everything, namePrefix: ev_, mcpServer: { url: "\${EVERYTHING_URL}" } }
    - { name: twin, namePrefix: tw_, mcpServer: { url: "\${TWIN_URL}" } }
    - { name: stalled, namePrefix: st_, mcpServer: { url: "\${STALLED_URL}" } }
`,
    );
    // One after the other: each lists server-everything as it starts, within a deadline, on a loaded machine.
    front = await spawnGateway(file, { EVERYTHING_URL: everything.url, TWIN_URL: twin.url, STALLED_URL: stalled.url });
    single = await spawnEverythingGateway(everything.url);
    direct = await v1Client(everything.url);
    clients.push(await v1Client(front.match[1]), await v2Client(front.match[1]));
    singleClients.push(await v1Client(single.match[1]), await v2Client(single.match[1]));
  }, 120_000);

  afterAll(async () => {
    for (const client of [...clients, ...singleClients, direct]) await client?.close().catch(() => undefined);
    await Promise.all([front?.stop(), single?.stop()]);
    stalled?.server.closeAllConnections();
    stalled?.server.close();
    await Promise.all([everything?.stop(), twin?.stop()]);
  });

  const eachEra = (name: string, test: (client: FeatureClient) => Promise<void>) =>
    it.each([0, 1])(`${name} (client %#)`, (index) => test(clients[index]));

  eachEra('declares resources and prompts, which the MCP server bundles serve', async (client) => {
    expect(client.capabilities()).toMatchObject({ tools: {}, resources: {}, prompts: {} });
  });

  eachEra(
    "lists every resource of both servers, every page, each server's under its own namespace; the stalled one holds up none",
    async (client) => {
      const upstream = (await direct.listResources()).resources;
      expect(upstream.length).toBeGreaterThan(PAGE_SIZE);
      const first = await client.listResources();
      // 2025: the gateway's pages as they are; 2026: the v2 client followed the cursors itself.
      expect(first.resources.length).toBe(client.era.startsWith('2025') ? PAGE_SIZE : upstream.length * 2);
      const listed = await allPages<{ uri: string }>((cursor) => client.listResources(cursor), 'resources');
      expect(listed).toEqual([
        ...upstream.map((resource) => ({ ...resource, uri: `everything+${resource.uri}` })),
        ...upstream.map((resource) => ({ ...resource, uri: `twin+${resource.uri}` })),
      ]);
      expect(listed.filter((resource) => resource.uri.startsWith('stalled+'))).toEqual([]);
    },
  );

  eachEra('lists the resource templates, namespaced the same way', async (client) => {
    const templates = (await client.listResourceTemplates()).resourceTemplates.map((template) => template.uriTemplate);
    expect(templates).toEqual(
      expect.arrayContaining([
        'everything+demo://resource/dynamic/text/{resourceId}',
        'everything+demo://resource/dynamic/blob/{resourceId}',
        'twin+demo://resource/dynamic/text/{resourceId}',
        'twin+demo://resource/dynamic/blob/{resourceId}',
      ]),
    );
  });

  eachEra("reads a listed resource as the server gives it, under the gateway's URI", async (client) => {
    const [first] = (await direct.listResources()).resources;
    const { contents } = await client.readResource(`twin+${first.uri}`);
    const { contents: upstream } = await direct.readResource(first.uri);
    expect(contents).toEqual(upstream.map((content) => ({ ...content, uri: `twin+${String(content.uri)}` })));
    expect(contents[0]).toHaveProperty('text');
  });

  eachEra('reads text and blob resources a template expands to, from the server the namespace names', async (client) => {
    const text = await client.readResource('everything+demo://resource/dynamic/text/3');
    expect(text.contents).toEqual([
      expect.objectContaining({ uri: 'everything+demo://resource/dynamic/text/3', mimeType: 'text/plain', text: expect.any(String) }),
    ]);
    const blob = await client.readResource('twin+demo://resource/dynamic/blob/2');
    expect(blob.contents).toEqual([expect.objectContaining({ uri: 'twin+demo://resource/dynamic/blob/2', blob: expect.any(String) })]);
    expect(Buffer.from(String(blob.contents[0].blob), 'base64').length).toBeGreaterThan(0);
  });

  eachEra('lists the prompts of both servers under their prefixes, and gets one with arguments', async (client) => {
    const upstream = (await direct.listPrompts()).prompts;
    const prompts = await allPages<{ name: string }>((cursor) => client.listPrompts(cursor), 'prompts');
    expect(prompts).toEqual([
      ...upstream.map((prompt) => ({ ...prompt, name: `ev_${prompt.name}` })),
      ...upstream.map((prompt) => ({ ...prompt, name: `tw_${prompt.name}` })),
    ]);
    const got = await client.getPrompt('tw_args-prompt', { city: 'Lyon', state: 'Rhône' });
    expect(got.messages).toEqual((await direct.getPrompt('args-prompt', { city: 'Lyon', state: 'Rhône' })).messages);
    expect(got.messages[0].content).toEqual({ type: 'text', text: "What's weather in Lyon, Rhône?" });
  });

  eachEra('passes a prompt with an embedded resource on whole', async (client) => {
    const { messages } = await client.getPrompt('ev_resource-prompt', { resourceType: 'Blob', resourceId: '4' });
    expect(messages.map((message) => message.content.type)).toEqual(['text', 'resource']);
    expect(messages[1].content.resource).toMatchObject({ uri: 'demo://resource/dynamic/blob/4', blob: expect.any(String) });
  });

  eachEra("answers the spec's errors: a URI no server has, a prompt none lists, and the server's own refusal", async (client) => {
    const notFound = client.era.startsWith('2025') ? -32002 : -32602;
    await expect(client.readResource('unknown://nowhere')).rejects.toMatchObject({ code: notFound });
    await expect(client.getPrompt('nobody_prompt')).rejects.toMatchObject({ code: -32602 });
    // server-everything refuses an id its template does not take: its error comes back, not a gateway failure.
    await expect(client.readResource('everything+demo://resource/dynamic/text/zero')).rejects.toMatchObject({
      message: expect.stringContaining('Unknown resource'),
    });
  });

  it.each([0, 1])(
    "reads the resource links of a tool's result, a listed resource and a prompt's embedded resource by the server's own URIs (client %#)",
    async (index) => {
      const client = singleClients[index];
      const { content } = await client.callTool('ev_get-resource-links', { count: 4 });
      const links = content.filter((block) => block.type === 'resource_link');
      expect(links.map((link) => link.uri)).toEqual([1, 2, 3, 4].map((id) => `demo://resource/dynamic/${id % 2 ? 'blob' : 'text'}/${id}`));
      for (const link of links) {
        const { contents } = await client.readResource(String(link.uri));
        expect(contents).toEqual([
          expect.objectContaining({
            uri: link.uri,
            mimeType: link.mimeType,
            // server-everything calls both kinds text/plain; the URI says which it is.
            [String(link.uri).includes('/blob/') ? 'blob' : 'text']: expect.any(String),
          }),
        ]);
      }
      const [listed] = (await direct.listResources()).resources;
      expect((await client.readResource(listed.uri)).contents).toEqual((await direct.readResource(listed.uri)).contents);
      const { messages } = await client.getPrompt('ev_resource-prompt', { resourceType: 'Text', resourceId: '6' });
      const embedded = messages[1].content.resource as { uri: string };
      expect((await client.readResource(embedded.uri)).contents).toEqual([
        expect.objectContaining({ uri: 'demo://resource/dynamic/text/6', text: expect.stringContaining('Resource 6') }),
      ]);
    },
  );

  eachEra(
    "refuses a server's own URI that both servers serve, with the spec's not-found error naming the namespaced URIs",
    async (client) => {
      const uri = 'demo://resource/dynamic/blob/1';
      const error = await client.readResource(uri).then(
        () => undefined,
        (thrown: unknown) => thrown as { code: number; message: string },
      );
      expect(error).toMatchObject({ code: client.era.startsWith('2025') ? -32002 : -32602 });
      expect(error?.message).toContain(`read one of everything+${uri}, twin+${uri}`);
      // Either namespaced form reads it.
      expect((await client.readResource(`twin+${uri}`)).contents).toEqual([expect.objectContaining({ uri: `twin+${uri}` })]);
    },
  );

  it("serves the others' resources while the stalled server holds a request of the gateway unanswered", async () => {
    const [client] = clients;
    // Listings (and the stalled server's handshake, which they share) are redone in the background once due
    // (1 s here): keep asking until the stalled server holds one. The unit spec of FeatureListings shows which waits.
    await until(() => {
      void client.listResources().catch(() => undefined);
      return stalledHolds > 0;
    }, 'a request of the gateway held by the stalled server');
    const listed = await allPages<{ uri: string }>((cursor) => client.listResources(cursor), 'resources');
    expect(stalledHolds).toBeGreaterThan(0); // answered while the stalled server still holds it: nothing waited for it
    expect(listed.some((resource) => resource.uri.startsWith('everything+'))).toBe(true);
    expect(listed.some((resource) => resource.uri.startsWith('twin+'))).toBe(true);
  });
});
