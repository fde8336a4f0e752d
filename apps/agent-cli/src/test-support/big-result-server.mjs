#!/usr/bin/env node
/**
 * A stdio MCP server (the SDK's McpServer) with one tool, "export_rows", whose result is one text block of
 * compact JSON, `{"rows": [...], "total": N}`, of about the size in characters given as its argument.
 */
import { McpServer } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';

const size = Number(process.argv[2]);
const row = (i) => ({
  id: `row-${String(i).padStart(6, '0')}`,
  amount: i * 7,
  note: 'n'.repeat(80),
});
const perRow = JSON.stringify(row(0)).length + 1;
const rows = Array.from({ length: Math.ceil(size / perRow) }, (_, i) => row(i));
const text = JSON.stringify({ rows, total: rows.length });

const server = new McpServer({ name: 'big-result', version: '1.0.0' });
server.registerTool('export_rows', { description: 'exports every row', annotations: { readOnlyHint: true } }, async () => ({
  content: [{ type: 'text', text }],
}));
await server.connect(new StdioServerTransport());
