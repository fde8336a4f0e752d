import { McpServerToolsSource } from './mcp-server-source';

describe('McpServerToolsSource', () => {
  const location = 'http://mcp.internal:3001/mcp';

  it("gives the server's tools as a manifest-shaped document", async () => {
    const tools = [{ name: 'echo', inputSchema: { type: 'object' } }];
    const source = new McpServerToolsSource({ location, listTools: async () => ({ tools, requiredCapabilities: {} }) });
    expect(source.location).toBe(location);
    expect(await source.fetch()).toEqual({ tools });
  });

  it('keeps beside them the capabilities some of its tools need (issue 44)', async () => {
    const tools = [{ name: 'ask', inputSchema: { type: 'object' } }];
    const requiredCapabilities = { ask: ['elicitation'] };
    const source = new McpServerToolsSource({ location, listTools: async () => ({ tools, requiredCapabilities }) });
    expect(await source.fetch()).toEqual({ tools, requiredCapabilities });
  });

  it('fails with registry.mcp_server_unreachable, naming the server and why', async () => {
    const source = new McpServerToolsSource({
      location,
      listTools: () => Promise.reject(new Error('did not answer within 3000 ms')),
    });
    await expect(source.fetch()).rejects.toMatchObject({
      code: 'registry.mcp_server_unreachable',
      message: `MCP server ${location}: tools/list failed: did not answer within 3000 ms`,
    });
  });
});
