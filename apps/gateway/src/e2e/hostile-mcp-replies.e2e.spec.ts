import path from 'node:path';

import { spawnGateway, writeGatewayConfig } from '@toolmesh/test-peers/gateway-process';
import { REPO_ROOT, type ServerProcess, spawnNodeScript } from '@toolmesh/test-peers/server-process';

interface CallAnswer {
  result?: { isError?: boolean; content: Array<{ text: string }> };
  error?: { code: number; message: string };
}

/**
 * Issue 43, item 4, against the built gateway as its own process and a federated MCP server written to
 * attack it (tools/test/peers/hostile-mcp-server.mjs): results nested 2,000,000 levels deep (4 MB, under the
 * 4 MiB message limit), as a JSON body and as an SSE event. Each is refused as it arrives, naming the limit,
 * and the connection to the server goes on serving. Behaviour only: the figures are in
 * tools/bench/hostile-mcp-replies.
 */
describe('a federated MCP server with deep replies (built gateway process)', () => {
  let server: ServerProcess & { match: RegExpExecArray };
  let gateway: ServerProcess & { match: RegExpExecArray };
  let mcpUrl: string;
  let managementUrl: string;

  beforeAll(async () => {
    server = await spawnNodeScript(path.join(REPO_ROOT, 'tools/test/peers/hostile-mcp-server.mjs'), {}, /listening on (\S+)/);
    gateway = await spawnGateway(
      writeGatewayConfig(`server: { port: 0, managementPort: 0 }
mcp:
  bundles:
    - { name: hostile, mcpServer: { url: "${server.match[1]}", era: "2025" } }
`),
    );
    [, mcpUrl, managementUrl] = gateway.match;
  });
  afterAll(async () => {
    await gateway?.stop();
    await server?.stop();
  });

  let nextId = 1;
  async function call(name: string, args: Record<string, unknown> = {}): Promise<CallAnswer> {
    const res = await fetch(mcpUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'mcp-protocol-version': '2025-11-25' },
      body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method: 'tools/call', params: { name, arguments: args } }),
    });
    expect(res.status).toBe(200);
    return (await res.json()) as CallAnswer;
  }

  it.each([
    ['a JSON body', 'deep_json'],
    ['an SSE event', 'deep_sse'],
  ])('refuses five deep results as %s with an isError result naming the limit, and the server stays usable', async (_, tool) => {
    const answers = await Promise.all(Array.from({ length: 5 }, () => call(tool)));
    for (const answer of answers) {
      expect(answer.result).toEqual({
        isError: true,
        content: [
          {
            type: 'text',
            text: `Tool ${tool} failed: the server's reply is nested deeper than this client's limit of 256 levels; it was dropped unparsed [http.message_too_deep]`,
          },
        ],
      });
    }
    await expect(call('echo', { text: 'after' })).resolves.toMatchObject({ result: { content: [{ text: '{"text":"after"}' }] } });
    expect((await fetch(`${managementUrl}/actuator/health/liveness`)).status).toBe(200);
    await gateway.logged(/event=mcp_upstream_report .*code=http\.message_too_deep/);
  });
});
