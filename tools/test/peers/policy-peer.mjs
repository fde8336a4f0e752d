#!/usr/bin/env node
/**
 * A policy MCP server over stdio, built with the SDK (@modelcontextprotocol/server), for hook tests: hooks
 * call its tools and act on what they answer.
 *
 *   --name=<n>        serverInfo.name, also on the command line so tests can find the process
 *   --record=<file>   "record" appends each call's arguments to this file as one JSON line
 *
 * Tools:
 *   decide {decision?, reason?, reply?}  answers {decision, reason}; reply chooses how:
 *       structured (default: structuredContent), text (the JSON as text only), plain (text "noted"),
 *       bad-json (text "{not json"), error (an isError result whose text repeats the arguments)
 *   record {...}                         appends its arguments to --record and answers "recorded"
 *   slow {ms}                            answers {"decision":"allow"} after ms milliseconds
 */
import { appendFileSync } from 'node:fs';

import { McpServer } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import * as z from 'zod';

const flags = Object.fromEntries(
  process.argv.slice(2).map((arg) => {
    const [key, ...value] = arg.replace(/^--/, '').split('=');
    return [key, value.length ? value.join('=') : true];
  }),
);

const text = (value, isError = false) => ({ content: [{ type: 'text', text: value }], isError });
const server = new McpServer({ name: flags.name ?? 'policy', version: '1.0.0' });

server.registerTool(
  'decide',
  {
    description: 'Answers the decision it is given',
    inputSchema: z.looseObject({ decision: z.string().optional(), reason: z.string().optional(), reply: z.string().optional() }),
  },
  async (args) => {
    const answer = { decision: args.decision, reason: args.reason };
    switch (args.reply ?? 'structured') {
      case 'text':
        return text(JSON.stringify(answer));
      case 'plain':
        return text('noted');
      case 'bad-json':
        return text('{not json');
      case 'error':
        return text(`policy failed for ${JSON.stringify(args)}`, true);
      default:
        return { content: [{ type: 'text', text: JSON.stringify(answer) }], structuredContent: answer };
    }
  },
);

server.registerTool('record', { description: 'Records its arguments', inputSchema: z.looseObject({}) }, async (args) => {
  appendFileSync(flags.record, `${JSON.stringify(args)}\n`);
  return text('recorded');
});

server.registerTool('slow', { description: 'Answers after ms milliseconds', inputSchema: z.object({ ms: z.number() }) }, async ({ ms }) => {
  await new Promise((resolve) => setTimeout(resolve, ms));
  return text(JSON.stringify({ decision: 'allow' }));
});

await server.connect(new StdioServerTransport());
