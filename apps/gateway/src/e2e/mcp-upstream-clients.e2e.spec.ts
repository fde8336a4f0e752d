import { type CallToolResult, Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as StreamableHTTPClientTransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { FEDERATED_CALLS, type FederatingGateway, passedOn, startFederatingGateway } from '@toolmesh/test-peers/federating-gateway';

/**
 * The SDK clients through a federating gateway (issue 28): the v1 client and the v2 client in both eras
 * list server-everything's tools through the front gateway, call them, and get what a direct call gets:
 * the echo's text, the image byte for byte, the resource links. (The agent CLI: its
 * gateway-federation.e2e.spec.ts.)
 */
const MODERN = '2026-07-28';
const LEGACY = '2025-11-25';

/** The subset of the SDK clients (v1 and v2) these tests use. */
interface SdkClient {
  listTools(): Promise<{ tools: Array<{ name: string; annotations?: unknown; _meta?: unknown }> }>;
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<unknown>;
  close(): Promise<void>;
}

async function sdkV2Client(url: string, era: typeof LEGACY | typeof MODERN): Promise<{ client: SdkClient; version: string | undefined }> {
  const client = new Client(
    { name: 'federation-clients', version: '1.0.0' },
    era === MODERN ? { versionNegotiation: { mode: { pin: MODERN } } } : {},
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return { client, version: client.getNegotiatedProtocolVersion() };
}

async function sdkV1Client(url: string): Promise<{ client: SdkClient; version: string | undefined }> {
  const client = new ClientV1({ name: 'federation-clients-v1', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransportV1(new URL(url));
  await client.connect(transport);
  return { client: client as unknown as SdkClient, version: transport.protocolVersion };
}

describe('the SDK clients through a gateway that federates server-everything (issue 28)', () => {
  let front: FederatingGateway;

  beforeAll(async () => {
    front = await startFederatingGateway();
  }, 120_000);
  afterAll(async () => {
    await front?.stop();
  });

  it('the direct calls gave an image and resource links to compare with', () => {
    expect(front.direct.get('get-tiny-image')?.content).toContainEqual(expect.objectContaining({ type: 'image', mimeType: 'image/png' }));
    expect(front.direct.get('get-resource-links')?.content).toContainEqual(expect.objectContaining({ type: 'resource_link' }));
  });

  it.each([
    ['the SDK v1 client', LEGACY, (url: string) => sdkV1Client(url)],
    ['the SDK v2 client', LEGACY, (url: string) => sdkV2Client(url, LEGACY)],
    ['the SDK v2 client', MODERN, (url: string) => sdkV2Client(url, MODERN)],
  ] as const)(
    "%s at %s lists the federated tools, their annotations marked as the server's claims, and gets their results whole",
    async (_client, era, connect) => {
      const { client, version } = await connect(front.url);
      try {
        expect(version).toBe(era);
        const { tools } = await client.listTools();
        expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(FEDERATED_CALLS.map(([tool]) => `ev_${tool}`)));
        // server-everything's read-only claim, and the gateway's word that it is that server's (docs/gateway.md, "MCP servers as a tool source").
        expect(tools.find((tool) => tool.name === 'ev_echo')).toMatchObject({
          annotations: { readOnlyHint: true },
          _meta: { 'io.toolmesh/annotations': { claimedBy: 'mcp-server', bundle: 'everything' } },
        });
        for (const [tool, args] of FEDERATED_CALLS) {
          const result = (await client.callTool({ name: `ev_${tool}`, arguments: args })) as CallToolResult;
          expect(passedOn(result)).toEqual(front.direct.get(tool));
        }
      } finally {
        await client.close();
      }
    },
  );
});
