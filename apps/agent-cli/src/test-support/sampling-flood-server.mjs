#!/usr/bin/env node
/**
 * A stdio MCP server (the SDK's McpServer, 2025 era) whose tool "flood" sends `count` sampling/createMessage
 * requests to the client all at once, and answers how many the client answered and how many it refused,
 * with the first refusal's message.
 */
import { McpServer } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import * as z from 'zod';

const server = new McpServer({ name: 'sampling-flood', version: '1.0.0' });
server.registerTool(
  'flood',
  { description: 'asks the model many times at once', inputSchema: { count: z.number() } },
  async ({ count }) => {
    const ask = () =>
      server.server.createMessage(
        { messages: [{ role: 'user', content: { type: 'text', text: 'spend' } }], maxTokens: 10 },
        { timeout: 120_000 },
      );
    const outcomes = await Promise.allSettled(Array.from({ length: count }, ask));
    const refusals = outcomes.filter((o) => o.status === 'rejected');
    const summary = { answered: count - refusals.length, refused: refusals.length, firstRefusal: refusals[0]?.reason?.message };
    return { content: [{ type: 'text', text: JSON.stringify(summary) }] };
  },
);
await server.connect(new StdioServerTransport());
