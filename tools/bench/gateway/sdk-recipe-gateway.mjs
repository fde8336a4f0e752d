// The baseline the gateway is measured against: the MCP TypeScript SDK's usual stateless recipe. A new
// McpServer and NodeStreamableHTTPServerTransport per request, every tool of the manifest registered on
// it, each tool forwarding to the tool service with fetch.
import { createServer } from 'node:http';

import { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';

const toolService = process.env.TOOL_SERVICE_URL;
const { tools } = await (await fetch(`${toolService}/tool-manifest`)).json();

function buildServer() {
  const server = new McpServer({ name: 'sdk-recipe', version: '1.0.0' });
  for (const tool of tools) {
    server.registerTool(
      tool.name,
      { description: tool.description, inputSchema: z.object({ text: z.string().max(1000) }), annotations: tool.annotations },
      async (args) => {
        const reply = await fetch(`${toolService}${tool.endpoint}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(args),
        });
        const { data } = await reply.json();
        return { content: [{ type: 'text', text: typeof data === 'string' ? data : JSON.stringify(data) }] };
      },
    );
  }
  return server;
}

const http = createServer(async (req, res) => {
  const server = buildServer();
  const transport = new NodeStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  res.on('close', () => {
    transport.close();
    server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(req, res);
});
http.keepAliveTimeout = 65_000;
http.listen(0, '127.0.0.1', () => console.log(`sdk recipe listening on http://127.0.0.1:${http.address().port}/mcp`));
process.on('SIGTERM', () => http.close(() => process.exit(0)));
