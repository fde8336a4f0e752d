#!/usr/bin/env node
/**
 * An MCP server over stdio, built with the SDK (@modelcontextprotocol/server), that sends notifications
 * *later*, on its own initiative: what a rewake test needs from a real server.
 *
 *   --name=<n>   serverInfo.name (default "notifying-peer"); also on the command line for process-table checks
 *
 * Tool "schedule_notification" {delayMs, kind, uri?, method?, level?, data?} answers at once and, after
 * delayMs, sends one notification of the kind:
 *   resource  notifications/resources/updated {uri}
 *   log       notifications/message {level (default "info"), logger: "peer", data}
 *   custom    <method> {uri?, data?}
 */
import { McpServer } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import * as z from 'zod';

const name = process.argv.find((arg) => arg.startsWith('--name='))?.slice('--name='.length) ?? 'notifying-peer';
const server = new McpServer({ name, version: '1.0.0' }, { capabilities: { logging: {}, resources: { subscribe: true } } });

const notificationOf = ({ kind, uri, method, level, data }) => {
  switch (kind) {
    case 'resource':
      return { method: 'notifications/resources/updated', params: { uri: uri ?? 'file:///peer/resource' } };
    case 'log':
      return { method: 'notifications/message', params: { level: level ?? 'info', logger: 'peer', data: data ?? 'a log message' } };
    default:
      return { method: method ?? 'notifications/peer/custom', params: { ...(uri ? { uri } : {}), ...(data ? { data } : {}) } };
  }
};

server.registerTool(
  'schedule_notification',
  {
    description: 'Answers at once, then sends one notification after delayMs',
    inputSchema: z.object({
      delayMs: z.number().int().min(0),
      kind: z.enum(['resource', 'log', 'custom']),
      uri: z.string().optional(),
      method: z.string().optional(),
      level: z.string().optional(),
      data: z.string().optional(),
    }),
    annotations: { readOnlyHint: true },
  },
  async (args) => {
    const notification = notificationOf(args);
    setTimeout(() => void server.server.notification(notification).catch((error) => process.stderr.write(`could not notify: ${error.message}\n`)), args.delayMs);
    return { content: [{ type: 'text', text: `${notification.method} scheduled in ${args.delayMs} ms` }] };
  },
);

await server.connect(new StdioServerTransport());
process.stdin.on('end', () => process.exit(0));
