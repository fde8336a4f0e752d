import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { useGatewayWithSampleService } from './test-support/test-gateway';

/**
 * Inspector CLI 1.0.3 finds its own package.json relative to the working directory, so it runs from its
 * build folder. (`@modelcontextprotocol/inspector --cli` runs this same package; see ADR 0003.)
 */
const INSPECTOR_BUILD = path.dirname(require.resolve('@modelcontextprotocol/inspector-cli/build/cli.js'));

async function inspector(...args: string[]): Promise<unknown> {
  const { stdout } = await promisify(execFile)(process.execPath, [path.join(INSPECTOR_BUILD, 'cli.js'), '--cli', ...args], { cwd: INSPECTOR_BUILD });
  return JSON.parse(stdout);
}

describe('real MCP clients through the gateway', () => {
  const { gateway } = useGatewayWithSampleService();

  it('the MCP Inspector CLI lists and calls a tool', async () => {
    const listed = (await inspector(gateway().url, '--transport', 'http', '--method', 'tools/list')) as { tools: Array<{ name: string }> };
    expect(listed.tools.map((t) => t.name)).toContain('product_search');
    const called = (await inspector(gateway().url, '--transport', 'http', '--method', 'tools/call', '--tool-name', 'echo_text', '--tool-arg', 'text=inspected')) as {
      content: Array<{ text: string }>;
      isError: boolean;
    };
    expect([called.isError, called.content[0].text]).toEqual([false, 'inspected']);
  }, 60_000);

  it("the SDK's Streamable HTTP client lists and calls a tool", async () => {
    const client = new Client({ name: 'sdk-client-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(gateway().url)));
    try {
      expect(client.getServerVersion()?.name).toBe('toolmesh-gateway');
      const { tools: listed } = await client.listTools();
      expect(listed.find((t) => t.name === 'order_search')?.inputSchema).toMatchObject({ type: 'object' });
      const result = await client.callTool({ name: 'product_search', arguments: { query: 'paper' } });
      expect(result.isError).toBe(false);
      expect(Array.isArray(JSON.parse((result.content as Array<{ text: string }>)[0].text))).toBe(true);
      const failing = await client.callTool({ name: 'always_fails', arguments: {} });
      expect(failing.isError).toBe(true);
    } finally {
      await client.close();
    }
  });
});
