import { type CallToolResult, Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Transport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CreateMessageRequestSchema, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { freePort } from '@toolmesh/test-peers/free-port';
import { spawnGateway, writeGatewayConfig } from '@toolmesh/test-peers/gateway-process';
import { type HttpPeer, PYTHON_MCP_REPLAY_SCRIPT, startHttpPeer, startPythonMcpServer } from '@toolmesh/test-peers/peers/http-peer';
import type { ServerProcess } from '@toolmesh/test-peers/server-process';

/**
 * A Python `mcp` 2.3.0 server's tools that ask the 2025 way (`ctx.elicit`, `ctx.session.create_message`)
 * behind the built gateway, its bundle at the default `era: auto` (issue 45, item 3). The server offers
 * 2026-07-28 and fails such a call there (that revision has no server-to-client requests); the gateway then
 * speaks 2025-11-25 with it, logs `mcp_upstream_era_legacy`, runs the call again and relays the server's
 * requests to its caller: a 2026-07-28 client (SDK v2) and a 2025 one (SDK v1). Met as the replay of the
 * server's captured wire (tools/test/peers/python-mcp-server.mjs, in CI) and, when TOOLMESH_PYTHON_MCP names
 * a venv's python with `mcp` 2.3.0, as the real server.
 */
const python = process.env.TOOLMESH_PYTHON_MCP;
const servers: Array<[string, () => Promise<Pick<HttpPeer, 'url' | 'stop'>>]> = [
  ['the replay of its wire', () => startHttpPeer([], PYTHON_MCP_REPLAY_SCRIPT)],
];
if (python) servers.push(['the real server (TOOLMESH_PYTHON_MCP)', async () => startPythonMcpServer(python, await freePort())]);

const textOf = (result: CallToolResult) => (result.content as Array<{ text?: string }>).map((block) => block.text ?? '').join('');

describe.each(servers)('a Python mcp server whose tools ask the 2025 way behind the gateway, %s, era auto', (_, start) => {
  let server: Pick<HttpPeer, 'url' | 'stop'>;
  let gateway: ServerProcess & { match: RegExpExecArray };

  beforeAll(async () => {
    server = await start();
    const file = writeGatewayConfig(
      `server: { port: 0, managementPort: 0 }
mcp:
  shutdownDrainMillis: 500
  catalogue: { manifestTimeoutMillis: 8000 }
  bundles:
    - { name: python, namePrefix: py_, mcpServer: { url: "\${PYTHON_URL}" } }
`,
    );
    gateway = await spawnGateway(file, { PYTHON_URL: server.url });
  }, 60_000);
  afterAll(async () => {
    await gateway?.stop();
    await server?.stop();
  });

  it('relays elicitation and sampling to a 2026-07-28 client, once the gateway turned to 2025-11-25 and logged it', async () => {
    const client = new Client(
      { name: 'python-test', version: '1.0.0' },
      { capabilities: { elicitation: { form: {} }, sampling: {} }, versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    client.setRequestHandler('elicitation/create', async () => ({ action: 'accept' as const, content: { name: 'Ada' } }));
    client.setRequestHandler('sampling/createMessage', async () => ({
      role: 'assistant' as const,
      content: { type: 'text' as const, text: 'Four.' },
      model: 'test-model',
    }));
    await client.connect(new StreamableHTTPClientTransport(new URL(gateway.match[1])));
    try {
      const asked = (await client.callTool({ name: 'py_ask_name', arguments: {} })) as CallToolResult;
      expect(textOf(asked)).toBe('hello Ada');
      await gateway.logged(/event=mcp_upstream_era_legacy bundle=python code=client\.server_requests_need_legacy/);
      const sampled = (await client.callTool({ name: 'py_summarize', arguments: { text: 'abc' } })) as CallToolResult;
      expect(textOf(sampled)).toBe('summary: Four.');
    } finally {
      await client.close();
    }
  });

  it('relays them to a 2025 client too', async () => {
    const client = new V1Client({ name: 'python-test-v1', version: '1.0.0' }, { capabilities: { elicitation: {}, sampling: {} } });
    client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: { name: 'Grace' } }));
    client.setRequestHandler(CreateMessageRequestSchema, async () => ({
      role: 'assistant',
      content: { type: 'text', text: 'Five.' },
      model: 'test-model',
    }));
    await client.connect(new V1Transport(new URL(gateway.match[1])));
    try {
      expect(textOf((await client.callTool({ name: 'py_ask_name', arguments: {} })) as CallToolResult)).toBe('hello Grace');
      const sampled = (await client.callTool({ name: 'py_summarize', arguments: { text: 'abc' } })) as CallToolResult;
      expect(textOf(sampled)).toBe('summary: Five.');
    } finally {
      await client.close();
    }
  });
});
