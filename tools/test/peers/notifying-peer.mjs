#!/usr/bin/env node
/**
 * An MCP server over stdio, built with the SDK (@modelcontextprotocol/server), that sends notifications
 * *later*, on its own initiative: what a rewake test needs from a real server.
 *
 *   --name=<n>              serverInfo.name (default "notifying-peer"); also on the command line for process-table checks
 *   --notify-on-start=<ms>  this long after notifications/initialized, send on its own a resource update
 *                           (file:///peer/ready), a log message ("peer started") and a custom notifications/peer/custom
 *                           ("peer custom event")
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

const flag = (key) => process.argv.find((arg) => arg.startsWith(`--${key}=`))?.slice(key.length + 3);
const name = flag('name') ?? 'notifying-peer';
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

const send = (notification) =>
  void server.server.notification(notification).catch((error) => process.stderr.write(`could not notify: ${error.message}\n`));

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
    setTimeout(() => send(notification), args.delayMs);
    return { content: [{ type: 'text', text: `${notification.method} scheduled in ${args.delayMs} ms` }] };
  },
);

if (flag('notify-on-start') !== undefined) {
  server.server.oninitialized = () =>
    setTimeout(
      () => {
        for (const kind of ['resource', 'log', 'custom'])
          send(
            notificationOf({
              kind,
              uri: kind === 'resource' ? 'file:///peer/ready' : undefined,
              data: { log: 'peer started', custom: 'peer custom event' }[kind],
            }),
          );
      },
      Number(flag('notify-on-start')),
    );
}

await server.connect(new StdioServerTransport());
process.stdin.on('end', () => process.exit(0));
