import path from 'node:path';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CreateMessageRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { spawnGateway, writeGatewayConfig } from '@toolmesh/test-peers/gateway-process';
import { REPO_ROOT, type ServerProcess, spawnNodeScript } from '@toolmesh/test-peers/server-process';

/**
 * Issue 43, item 9 ("relayed server-request floods unbounded"), against the built gateway as its own
 * process: a federated MCP server (tools/test/peers/request-flood-mcp-server.mjs) sends 200 sampling
 * requests at once during one call, and a 2025 caller answers each after a pause. At most
 * `mcp.maxRelayedRequestsPerCall` (16 by default) wait for the caller at once; the rest are refused to the
 * server at once, naming the setting, and never reach the caller.
 */
interface Tally {
  answered: number;
  refused: number;
  refusal?: { code: number; message: string; data?: unknown };
}

describe('an MCP server that floods its caller with requests during a call (built gateway process)', () => {
  let server: ServerProcess & { match: RegExpExecArray };
  let gateway: ServerProcess & { match: RegExpExecArray };
  let client: Client;
  let asked = 0;

  beforeAll(async () => {
    server = await spawnNodeScript(path.join(REPO_ROOT, 'tools/test/peers/request-flood-mcp-server.mjs'), {}, /listening on (\S+)/);
    gateway = await spawnGateway(
      writeGatewayConfig(`server: { port: 0, managementPort: 0 }
mcp:
  bundles:
    - { name: flooding, namePrefix: fl_, mcpServer: { url: "${server.match[1]}", era: "2025" } }
`),
    );
    client = new Client({ name: 'flooded-caller', version: '1.0.0' }, { capabilities: { sampling: {} } });
    client.setRequestHandler(CreateMessageRequestSchema, async () => {
      asked++;
      await new Promise((resolve) => setTimeout(resolve, 500)); // a model takes its time: the flood arrives meanwhile
      return { role: 'assistant', content: { type: 'text', text: 'an answer' }, model: 'test-model' };
    });
    await client.connect(new StreamableHTTPClientTransport(new URL(gateway.match[1])));
  });
  afterAll(async () => {
    await client?.close();
    await gateway?.stop();
    await server?.stop();
  });

  const flood = async (count: number): Promise<Tally> => {
    const result = await client.callTool({ name: 'fl_flood', arguments: { count } });
    return JSON.parse((result.content as Array<{ text: string }>)[0].text) as Tally;
  };

  it('relays 16 of 200 requests sent at once to the caller and refuses the rest to the server, naming the setting', async () => {
    const tally = await flood(200);
    expect(asked).toBe(16);
    expect(tally).toEqual({
      answered: 16,
      refused: 184,
      refusal: {
        code: -32603,
        message:
          "sampling/createMessage not relayed: 16 requests of this call already wait for the caller's answers (mcp.maxRelayedRequestsPerCall)",
        data: { limit: 'maxRelayedRequestsPerCall', maximum: 16 },
      },
    });
  });

  it('relays every request of a call within the limit, on the same connection after the flood', async () => {
    asked = 0;
    expect(await flood(3)).toEqual({ answered: 3, refused: 0 });
    expect(asked).toBe(3);
  });
});
