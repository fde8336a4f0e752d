#!/usr/bin/env node
/**
 * A stdio MCP server written with the SDK's McpServer whose names and descriptions carry terminal escape
 * sequences (a clear-screen, a colour, a newline), for the tests that tables show them escaped (SPEC A20).
 */
import { McpServer } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';

const ESC = '\u001b';
const server = new McpServer({ name: `hostile${ESC}[2J`, version: `1.0${ESC}[31m` });

server.registerTool('echo', { description: `Echoes${ESC}[2J back\nsecond line` }, async () => ({
  content: [{ type: 'text', text: 'echo' }],
}));
server.registerResource(
  `doc${ESC}[31m`,
  'hostile://doc',
  { description: `A resource${ESC}]0;title${'\u0007'}`, mimeType: 'text/plain' },
  async (uri) => ({
    contents: [{ uri: uri.href, text: 'the document' }],
  }),
);
server.registerPrompt('greet', { description: `Says hi${ESC}[2J` }, async () => ({
  messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }],
}));

await server.connect(new StdioServerTransport());
