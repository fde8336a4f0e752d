#!/usr/bin/env node
/**
 * A small stdio MCP server written with the SDK's McpServer, for the live tool list tests (SPEC A12).
 * Tools: "install" registers the tool "fresh" (the SDK then sends notifications/tools/list_changed before
 * install's own result); "fresh" answers "fresh ran".
 */
import { McpServer } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';

const server = new McpServer({ name: 'tool-adding-server', version: '1.0.0' }, { capabilities: { tools: { listChanged: true } } });

server.registerTool('install', { description: 'Adds the tool "fresh"' }, async () => {
  server.registerTool('fresh', { description: 'A tool that was not there at first' }, async () => ({
    content: [{ type: 'text', text: 'fresh ran' }],
  }));
  return { content: [{ type: 'text', text: 'installed fresh' }] };
});

await server.connect(new StdioServerTransport());
