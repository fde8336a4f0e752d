#!/usr/bin/env node
/**
 * A small hand-written MCP server over stdio, for tests that need a server to misbehave in a precise
 * way (real servers from npm cover the well-behaved cases). Behaviour is chosen by flags:
 *
 *   --name=<n>                 serverInfo.name (default "peer")
 *   --tools=<json>             the tools/list result's tools (default: one "echo" tool)
 *   --tools-file=<path>        the same, read from a JSON file (lists too long for a command line)
 *   --initialize-delay=<ms>    answer initialize only after this long
 *   --hang-initialize          never answer initialize
 *   --noise                    before answering tools/list, write a non-JSON line, a JSON line that is
 *                              not JSON-RPC, and a line of --noise-bytes bytes (default 2 MiB)
 *   --notify                   after notifications/initialized, send a notifications/message
 *   --stubborn                 ignore stdin EOF and SIGTERM (only SIGKILL ends it)
 *   --grandchild               start a long-running child process and report its pid on stderr
 *   --crash-on-call            exit with code 3 when a tool is called
 *   --stderr-bytes=<n>         write this many bytes to stderr at start
 *   --record=<file>            append the method of every message received to this file, one per line
 *   --exit-before-initialize   exit with code 1 on any request before initialize (as servers on SDKs
 *                              that end on a request they cannot take yet do with server/discover)
 *
 * Tools: "echo" returns its arguments as text; "env" returns the environment as JSON; "fail" returns
 * an isError result; "slow" answers after arguments.ms milliseconds; any other listed tool answers
 * "<name> ran with <arguments as JSON>".
 */
import { spawn } from 'node:child_process';
import { appendFileSync, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

const flags = Object.fromEntries(
  process.argv.slice(2).map((arg) => {
    const [key, ...value] = arg.replace(/^--/, '').split('=');
    return [key, value.length ? value.join('=') : true];
  }),
);

const DEFAULT_TOOLS = [
  {
    name: 'echo',
    description: 'Echoes its arguments',
    inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
    annotations: { readOnlyHint: true, destructiveHint: false },
  },
  { name: 'env', description: 'Returns the environment', inputSchema: { type: 'object' } },
  { name: 'fail', description: 'Always fails', inputSchema: { type: 'object' } },
  { name: 'slow', description: 'Answers after arguments.ms', inputSchema: { type: 'object', properties: { ms: { type: 'number' } } } },
];
const toolsJson = flags['tools-file'] ? readFileSync(flags['tools-file'], 'utf8') : flags.tools;
const tools = toolsJson ? JSON.parse(toolsJson) : DEFAULT_TOOLS;

const write = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);
const reply = (id, result) => write({ jsonrpc: '2.0', id, result });
const text = (value, isError = false) => ({ content: [{ type: 'text', text: value }], isError });

if (flags.stubborn) process.on('SIGTERM', () => process.stderr.write('ignoring SIGTERM\n'));
if (flags['stderr-bytes']) process.stderr.write('e'.repeat(Number(flags['stderr-bytes'])));
if (flags.grandchild) {
  // Carries the peer's name on its command line, so tests can find it in the process table.
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)', '--', `--grandchild-of=${flags.name ?? 'peer'}`], {
    stdio: 'ignore',
  });
  process.stderr.write(`grandchild ${child.pid}\n`);
}

const handlers = {
  initialize: (request) => {
    if (flags['hang-initialize']) return;
    const result = {
      protocolVersion: request.params.protocolVersion,
      capabilities: { tools: {}, logging: {} },
      serverInfo: { name: flags.name ?? 'peer', version: '1.0.0' },
    };
    setTimeout(() => reply(request.id, result), Number(flags['initialize-delay'] ?? 0));
  },
  'notifications/initialized': () => {
    if (flags.notify) write({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'hello from peer' } });
  },
  ping: (request) => reply(request.id, {}),
  'tools/list': (request) => {
    if (flags.noise) {
      process.stdout.write('this is not json\n');
      write({ hello: 'json but not JSON-RPC' });
      process.stdout.write(`${'x'.repeat(Number(flags['noise-bytes'] ?? 2 * 1024 * 1024))}\n`);
    }
    reply(request.id, { tools });
  },
  'tools/call': (request) => {
    const { name, arguments: args = {} } = request.params;
    if (flags['crash-on-call']) process.exit(3);
    if (name === 'echo') return reply(request.id, text(JSON.stringify(args)));
    if (name === 'env') return reply(request.id, text(JSON.stringify(process.env)));
    if (name === 'fail') return reply(request.id, text('the tool failed on purpose', true));
    if (name === 'slow') return setTimeout(() => reply(request.id, text('done')), Number(args.ms ?? 0));
    if (tools.some((tool) => tool.name === name)) return reply(request.id, text(`${name} ran with ${JSON.stringify(args)}`));
    write({ jsonrpc: '2.0', id: request.id, error: { code: -32602, message: `Unknown tool: ${name}` } });
  },
};

let initialized = false;
createInterface({ input: process.stdin }).on('line', (line) => {
  const message = JSON.parse(line);
  if (flags.record) appendFileSync(flags.record, `${message.method ?? 'response'}\n`);
  if (message.method === 'initialize') initialized = true;
  else if (flags['exit-before-initialize'] && !initialized && message.id !== undefined) process.exit(1);
  const handler = handlers[message.method];
  if (handler) handler(message);
  else if (message.id !== undefined) write({ jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Method not found' } });
});
process.stdin.on('end', () => {
  // stubborn: a pending timer keeps the process alive after its stdin closed, as a hung server would
  if (flags.stubborn) setInterval(() => undefined, 1000);
  else process.exit(0);
});
