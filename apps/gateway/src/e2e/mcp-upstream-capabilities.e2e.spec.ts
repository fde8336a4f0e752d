import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

import {
  type CallToolResult,
  Client,
  type ClientCapabilities,
  ProtocolError,
  StreamableHTTPClientTransport,
} from '@modelcontextprotocol/client';
import { spawnGateway, writeGatewayConfig } from '@toolmesh/test-peers/gateway-process';
import { type Everything, startEverything } from '@toolmesh/test-peers/mcp-servers';

/**
 * What each client may see (issue 44): server-everything lists its sampling, elicitation and roots tools
 * only to clients declaring those capabilities. Through the gateway, in both eras, a client is shown what
 * it is shown directly with the same declaration, and a call of a tool it is not shown is answered as a
 * call of an unknown tool. The MCP Inspector CLI (which declares none) lists through the gateway exactly
 * what it lists directly.
 */
const MODERN = '2026-07-28';
const LEGACY = '2025-11-25';
const INSPECTOR_BUILD = path.dirname(require.resolve('@modelcontextprotocol/inspector-cli/build/cli.js'));
const ALL: ClientCapabilities = { sampling: {}, elicitation: {}, roots: {} };
const GATED = ['trigger-sampling-request', 'trigger-elicitation-request', 'get-roots-list'];

async function inspectorTools(url: string): Promise<Array<{ name: string; description?: string; inputSchema: unknown }>> {
  // Inspector CLI 1.0.3 finds its own package.json relative to the working directory (clients.spec.ts).
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [path.join(INSPECTOR_BUILD, 'cli.js'), '--cli', url, '--transport', 'http', '--method', 'tools/list'],
    { cwd: INSPECTOR_BUILD },
  );
  return (JSON.parse(stdout) as { tools: Array<{ name: string; description?: string; inputSchema: unknown }> }).tools;
}

async function client(url: string, capabilities: ClientCapabilities, era: typeof LEGACY | typeof MODERN): Promise<Client> {
  const connected = new Client(
    { name: 'capabilities-e2e', version: '1.0.0' },
    { capabilities, ...(era === MODERN && { versionNegotiation: { mode: { pin: MODERN } } }) },
  );
  await connected.connect(new StreamableHTTPClientTransport(new URL(url)));
  expect(connected.getNegotiatedProtocolVersion()).toBe(era);
  return connected;
}

async function toolNames(url: string, capabilities: ClientCapabilities, era: typeof LEGACY | typeof MODERN = LEGACY): Promise<string[]> {
  const listing = await client(url, capabilities, era);
  try {
    return (await listing.listTools()).tools.map(({ name }) => name).sort();
  } finally {
    await listing.close();
  }
}

/** The error a call gets, or its result when it has none. */
async function callError(caller: Client, name: string): Promise<{ code: number; message: string } | CallToolResult> {
  try {
    return (await caller.callTool({ name, arguments: {} })) as CallToolResult;
  } catch (error) {
    if (!(error instanceof ProtocolError)) throw error;
    return { code: error.code, message: error.message.replace(name, '<tool>') };
  }
}

describe('what each client may see of an MCP server that lists some tools only to some clients (issue 44)', () => {
  let everything: Everything;
  let gateway: Awaited<ReturnType<typeof spawnGateway>>;
  let searching: Awaited<ReturnType<typeof spawnGateway>>;
  const url = () => gateway.match[1];

  beforeAll(async () => {
    everything = await startEverything();
    const bundle = `  bundles:
    - { name: everything, mcpServer: { url: "\${EVERYTHING_URL}" } }
`;
    const env = { EVERYTHING_URL: everything.url };
    [gateway, searching] = await Promise.all([
      spawnGateway(writeGatewayConfig(`server: { port: 0, managementPort: 0 }\nmcp:\n  shutdownDrainMillis: 1000\n${bundle}`), env),
      spawnGateway(
        writeGatewayConfig(`server: { port: 0, managementPort: 0 }\nmcp:\n  shutdownDrainMillis: 1000\n  toolSearch: true\n${bundle}`),
        env,
      ),
    ]);
  }, 120_000);
  afterAll(async () => {
    await gateway?.stop();
    await searching?.stop();
    await everything?.stop();
  });

  it('the Inspector CLI lists through the gateway exactly what it lists directly', async () => {
    const [direct, through] = await Promise.all([inspectorTools(everything.url), inspectorTools(url())]);
    const compared = (tools: typeof direct) => tools.map(({ name, description, inputSchema }) => ({ name, description, inputSchema }));
    expect(compared(through)).toEqual(compared(direct));
    expect(direct.map(({ name }) => name)).not.toContain('trigger-sampling-request');
  }, 60_000);

  it.each([
    ['none', {}],
    ['sampling', { sampling: {} }],
    ['elicitation', { elicitation: {} }],
    ['roots', { roots: {} }],
    ['all three', ALL],
  ] as Array<[string, ClientCapabilities]>)(
    'a client declaring %s is shown, in both eras, what it is shown directly',
    async (_, declared) => {
      const direct = await toolNames(everything.url, declared);
      expect(await toolNames(url(), declared, LEGACY)).toEqual(direct);
      expect(await toolNames(url(), declared, MODERN)).toEqual(direct);
    },
  );

  it.each([LEGACY, MODERN] as const)('at %s, a call of a tool not shown is answered as a call of an unknown tool', async (era) => {
    const caller = await client(url(), {}, era);
    try {
      const unknown = await callError(caller, 'no-such-tool');
      expect(unknown).toMatchObject({ code: expect.any(Number) });
      for (const tool of GATED) expect(await callError(caller, tool)).toEqual(unknown);
    } finally {
      await caller.close();
    }
  });

  it.each([LEGACY, MODERN] as const)('at %s, search_tools finds a gated tool only for a client declaring its capability', async (era) => {
    const search = async (declared: ClientCapabilities) => {
      const caller = await client(searching.match[1], declared, era);
      try {
        const result = (await caller.callTool({
          name: 'search_tools',
          arguments: { query: 'sampling request', limit: 50 },
        })) as CallToolResult;
        return (result.structuredContent as { tools: Array<{ name: string }> }).tools.map(({ name }) => name);
      } finally {
        await caller.close();
      }
    };
    expect(await search({})).not.toContain('trigger-sampling-request');
    expect(await search({ sampling: {} })).toContain('trigger-sampling-request');
  });
});
