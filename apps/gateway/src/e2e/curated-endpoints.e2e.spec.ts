import { Client } from '@modelcontextprotocol/client';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as StreamableHTTPClientTransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { gatewayConfigFile, spawnGateway, writeGatewayConfig } from '@toolmesh/test-peers/gateway-process';
import { type SampleToolService, startSampleToolService } from '@toolmesh/test-peers/sample-tool-service';
import type { ServerProcess } from '@toolmesh/test-peers/server-process';

import { MODERN_VERSION as MODERN, modernRequest } from '../test-support/modern-request';
import { callAddedTool, changeManifest, isListChanged, openListen, openStream } from '../test-support/notification-streams';
import { authTrusting, startTokenIssuer, type TokenIssuer } from '../test-support/token-issuer';

type Gateway = ServerProcess & { match: RegExpExecArray };
type Listed = { name: string; description?: string; annotations?: object; _meta?: Record<string, unknown> };

const OPERATOR = 'io.toolmesh/operator';

/** What a real client of either SDK sees of an endpoint: its tools, a call by name, and the error of a call it cannot make. */
interface SeenClient {
  list(): Promise<Listed[]>;
  call(name: string, args: Record<string, unknown>): Promise<{ isError?: boolean; content: Array<{ text?: string }> }>;
  /** The JSON-RPC error a call is refused with, as the SDK reports it. */
  refusal(name: string): Promise<{ code: number; message: string }>;
  close(): Promise<void>;
}

async function modernClient(url: string): Promise<SeenClient> {
  const client = new Client({ name: 'curated-v2', version: '1.0.0' }, { versionNegotiation: { mode: { pin: MODERN } } });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  expect(client.getNegotiatedProtocolVersion()).toBe(MODERN);
  return sdkClient(client);
}

async function legacyClient(url: string): Promise<SeenClient> {
  const client = new ClientV1({ name: 'curated-v1', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransportV1(new URL(url)));
  return sdkClient(client as unknown as Client);
}

function sdkClient(client: Client): SeenClient {
  return {
    list: async () => (await client.listTools()).tools as Listed[],
    call: async (name, args) => (await client.callTool({ name, arguments: args })) as never,
    refusal: async (name) => {
      const failure = await client.callTool({ name, arguments: {} }).then(
        (result) => ({ code: 0, message: `answered ${JSON.stringify(result)}` }),
        (error: { code: number; message: string }) => ({ code: error.code, message: error.message }),
      );
      return { code: failure.code, message: failure.message.replaceAll(name, '<name>') };
    },
    close: () => client.close(),
  };
}

const CLIENTS: Array<[string, (url: string) => Promise<SeenClient>]> = [
  [`SDK v2 at ${MODERN}`, modernClient],
  ['SDK v1 at 2025-11-25', legacyClient],
];

describe('curated endpoints (issue 46): two subsets of the sample tool service behind one gateway process', () => {
  let tools: SampleToolService;
  let gateway: Gateway;
  const at = (path: string) => `${gateway.match[1]}${path}`;
  beforeAll(async () => {
    tools = await startSampleToolService();
    gateway = await spawnGateway(
      gatewayConfigFile(
        tools.url,
        `  catalogue: { refreshTtlMillis: 120000, forcedRefreshCooldownMillis: 0 }
  endpoints:
    - name: support
      serve: [{ tools: customer_lookup }, { tools: echo_text }]
      overrides:
        customer_lookup:
          name: find_customer
          description: Finds a customer for the support desk
          annotations: { title: Find a customer, readOnlyHint: true, openWorldHint: false }
    - name: lab
      serve: [{ tools: "test_*" }, { tools: product_search }]
      overrides: { product_search: { description: Searches the lab's products } }
      toolSearch: true`,
      ),
    );
  });
  afterAll(async () => {
    await gateway?.stop();
    await tools?.stop();
  });

  describe.each(CLIENTS)('a real client, %s', (_client, connect) => {
    it("on /mcp/support sees only its two tools, one under its alias with the operator's words and marker, and calls it", async () => {
      const client = await connect(at('/support'));
      try {
        const listed = await client.list();
        expect(listed.map((tool) => tool.name)).toEqual(['echo_text', 'find_customer']);
        expect(listed[1]).toMatchObject({
          description: 'Finds a customer for the support desk',
          annotations: { title: 'Find a customer', readOnlyHint: true, openWorldHint: false },
          _meta: { [OPERATOR]: { endpoint: 'support', changed: ['name', 'description', 'annotations'], aliasOf: 'customer_lookup' } },
        });
        expect(listed[0]._meta?.[OPERATOR]).toBeUndefined();
        const found = await client.call('find_customer', { customerId: 'C1001' });
        expect([found.isError, found.content[0].text]).toEqual([false, expect.stringContaining('C1001')]);
      } finally {
        await client.close();
      }
    });

    it('cannot call a tool outside the subset, by its original name either: refused exactly as an unknown tool', async () => {
      const client = await connect(at('/support'));
      try {
        const unknown = await client.refusal('no_such_tool');
        expect(unknown.code).not.toBe(0);
        expect(await client.refusal('customer_lookup')).toEqual(unknown);
        expect(await client.refusal('order_search')).toEqual(unknown);
      } finally {
        await client.close();
      }
      expect((await tools.calls()).filter((call) => call.tool === 'order_search')).toEqual([]);
    });

    it('on /mcp/lab sees its own subset, overridden, with search_tools over it alone', async () => {
      const client = await connect(at('/lab'));
      try {
        const listed = await client.list();
        const names = listed.map((tool) => tool.name);
        expect(names).toEqual(expect.arrayContaining(['product_search', 'test_trigger_tool_change', 'search_tools']));
        expect(names.every((name) => name.startsWith('test_') || name === 'product_search' || name === 'search_tools')).toBe(true);
        expect(listed.find((tool) => tool.name === 'product_search')?._meta?.[OPERATOR]).toEqual({
          endpoint: 'lab',
          changed: ['description'],
        });
        const searched = await client.call('search_tools', { query: 'customer' });
        expect(searched.content.map((block) => block.text).join(' ')).not.toContain('customer_lookup');
        expect(await client.refusal('echo_text')).toEqual(await client.refusal('no_such_tool'));
      } finally {
        await client.close();
      }
    });
  });

  it('leaves the default endpoint as it was: every tool by its own name, no search_tools, no operator marker', async () => {
    const client = await modernClient(gateway.match[1]);
    try {
      const listed = await client.list();
      const names = listed.map((tool) => tool.name);
      expect(names).toEqual(expect.arrayContaining(['customer_lookup', 'order_search', 'echo_text']));
      expect(names).not.toContain('find_customer');
      expect(names).not.toContain('search_tools');
      expect(listed.some((tool) => tool._meta?.[OPERATOR] !== undefined)).toBe(false);
    } finally {
      await client.close();
    }
  });

  it('shows the endpoints, their tools and aliases on /actuator/toolBundles', async () => {
    const status = (await (await fetch(`${gateway.match[2]}/actuator/toolBundles`)).json()) as {
      endpoints: Array<Record<string, unknown>>;
    };
    expect(status.endpoints.map((endpoint) => [endpoint.name, endpoint.path, endpoint.toolSearch])).toEqual([
      ['support', '/mcp/support', false],
      ['lab', '/mcp/lab', true],
    ]);
    expect(status.endpoints[0].tools).toEqual([
      { name: 'echo_text', bundle: 'sample' },
      { name: 'find_customer', bundle: 'sample', changed: ['name', 'description', 'annotations'], aliasOf: 'customer_lookup' },
    ]);
  });

  it("tells an endpoint's listeners of a change to its subset, and not the listeners of an endpoint whose subset did not change", async () => {
    const supportLegacy = await openStream(at('/support'), {
      headers: { accept: 'text/event-stream', 'mcp-protocol-version': '2025-11-25' },
    });
    const supportModern = await openListen(at('/support'), 'S1');
    const lab = await openListen(at('/lab'), 'L1');
    const everything = await openListen(gateway.match[1], 'D1');
    try {
      for (const stream of [supportModern, lab, everything])
        await stream.next((message) => message.method === 'notifications/subscriptions/acknowledged');
      await changeManifest(tools.url); // test_added_tool appears: in lab's subset, not in support's
      expect(await callAddedTool(gateway.match[1])).toMatchObject({ result: { isError: false } });
      expect(await lab.next(isListChanged)).toMatchObject({ params: { _meta: { 'io.modelcontextprotocol/subscriptionId': 'L1' } } });
      expect(await everything.next(isListChanged)).toMatchObject({ method: 'notifications/tools/list_changed' });
      // Both were told in the same turn as any support listener would have been: a while more shows none was.
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect([...supportLegacy.messages, ...supportModern.messages].filter(isListChanged)).toEqual([]);
    } finally {
      for (const stream of [supportLegacy, supportModern, lab, everything]) stream.close();
      await changeManifest(tools.url);
    }
  });
});

describe('curated endpoints with caller auth: their own scopes and rate limits', () => {
  const AUDIENCE = 'https://gateway.test.invalid/mcp';
  let issuer: TokenIssuer;
  let tools: SampleToolService;
  let gateway: Gateway;
  beforeAll(async () => {
    [issuer, tools] = await Promise.all([startTokenIssuer(AUDIENCE), startSampleToolService()]);
    const auth = { ...authTrusting(issuer, AUDIENCE), scopesSupported: ['tools', 'support'] };
    gateway = await spawnGateway(
      writeGatewayConfig(`server: { port: 0, managementPort: 0 }
mcp:
  bundles:
    - { name: sample, serviceDomain: "${tools.url}", manifestPath: /tool-manifest }
  endpoints:
    - { name: support, serve: [{ tools: customer_lookup }], scopes: [support] }
    - { name: limited, serve: [{ tools: echo_text }], rateLimits: { perCaller: { points: 2, durationSeconds: 600 } } }
auth: ${JSON.stringify(auth)}
`),
    );
  });
  afterAll(async () => {
    await gateway?.stop();
    await tools?.stop();
    await issuer?.close();
  });

  const modernCall = (path: string, token: string, method: string, params: Record<string, unknown> = {}) =>
    modernRequest(`${gateway.match[1]}${path}`, method, params, { headers: { authorization: `Bearer ${token}` } });
  const signed = (scope: string) => issuer.sign({ sub: 'agent-1', client_id: 'agent-cli', scope });

  it("refuses a token without the endpoint's scopes with 403 insufficient_scope naming them, and serves one with them", async () => {
    const refused = await modernCall('/support', await signed('tools'), 'tools/list');
    expect(refused.status).toBe(403);
    expect(refused.headers.get('www-authenticate')).toContain('error="insufficient_scope"');
    expect(refused.headers.get('www-authenticate')).toContain('scope="tools support"');
    expect(((await refused.json()) as { error: { message: string } }).error.message).toContain(
      'endpoint support needs the scopes "support"',
    );

    const allowed = await modernCall('/support', await signed('tools support'), 'tools/list');
    expect(allowed.status).toBe(200);
    expect(((await allowed.json()) as { result: { tools: Listed[] } }).result.tools.map((tool) => tool.name)).toEqual(['customer_lookup']);
    // The default endpoint asks for no such scope.
    expect((await modernCall('', await signed('tools'), 'tools/list')).status).toBe(200);
  });

  it("counts the endpoint's own rate limit for its calls, and not the default endpoint's", async () => {
    const token = await signed('tools');
    const echo = (path: string) => modernCall(path, token, 'tools/call', { name: 'echo_text', arguments: { text: 'hi' } });
    expect([(await echo('/limited')).status, (await echo('/limited')).status]).toEqual([200, 200]);
    const third = await echo('/limited');
    expect([third.status, third.headers.get('retry-after') !== null]).toEqual([429, true]);
    expect((await echo('')).status).toBe(200);
  });
});
