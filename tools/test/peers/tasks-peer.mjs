#!/usr/bin/env node
/**
 * A 2026-07-28 MCP server over stdio with the Tasks extension (SEP-2663), for the agent's tasks client at
 * that era (server-everything covers 2025-11-25). It declares `io.modelcontextprotocol/tasks` in
 * `server/discover`; a `tools/call` of "report" that declares the extension in its `_meta` becomes a task
 * that completes after --task-ms (default 500) with "report: <arguments.topic>"; one that does not gets the
 * result at once. `tasks/get` answers the task's state with the result inline, `tasks/cancel` acknowledges
 * and cancels. "echo" always answers at once.
 *
 *   --task-ms=<ms>     how long a task runs
 *   --record=<file>    append each request's method and whether its _meta declared the extension
 */
import { appendFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

const flags = Object.fromEntries(
  process.argv.slice(2).map((arg) => {
    const [key, ...value] = arg.replace(/^--/, '').split('=');
    return [key, value.length ? value.join('=') : true];
  }),
);
const TASKS = 'io.modelcontextprotocol/tasks';
const taskMs = Number(flags['task-ms'] ?? 500);
const tasks = new Map();
let next = 0;

const write = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);
const reply = (id, result) => write({ jsonrpc: '2.0', id, result: { resultType: 'complete', ...result } });
const text = (value) => ({ content: [{ type: 'text', text: value }], isError: false });
const tools = [
  { name: 'report', description: 'Writes a report, as a task', inputSchema: { type: 'object', properties: { topic: { type: 'string' } } } },
  { name: 'echo', description: 'Echoes its arguments', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
];

function state(task) {
  const status = task.cancelled ? 'cancelled' : Date.now() >= task.doneAt ? 'completed' : 'working';
  const now = new Date().toISOString();
  return {
    taskId: task.id,
    status,
    createdAt: task.createdAt,
    lastUpdatedAt: now,
    ttlMs: 60_000,
    pollIntervalMs: 100,
    ...(status === 'completed' && { result: text(`report: ${task.topic}`) }),
  };
}

createInterface({ input: process.stdin }).on('line', (line) => {
  const message = JSON.parse(line);
  const { id, method, params } = message;
  if (id === undefined) return;
  const declared = params?._meta?.['io.modelcontextprotocol/clientCapabilities']?.extensions?.[TASKS] !== undefined;
  if (flags.record) appendFileSync(flags.record, `${method} ${declared ? 'tasks' : '-'}\n`);
  switch (method) {
    case 'server/discover':
      return reply(id, {
        supportedVersions: ['2026-07-28'],
        capabilities: { tools: {}, extensions: { [TASKS]: {} } },
        ttlMs: 0,
        cacheScope: 'private',
        _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'tasks-peer', version: '1.0.0' } },
      });
    case 'tools/list':
      return reply(id, { tools, ttlMs: 0, cacheScope: 'private' });
    case 'tools/call': {
      if (params.name === 'echo') return reply(id, text(JSON.stringify(params.arguments ?? {})));
      if (!declared) return reply(id, text(`report: ${params.arguments?.topic} (at once)`));
      const task = {
        id: `task-${(next += 1)}`,
        topic: params.arguments?.topic,
        doneAt: Date.now() + taskMs,
        createdAt: new Date().toISOString(),
      };
      tasks.set(task.id, task);
      return write({ jsonrpc: '2.0', id, result: { resultType: 'task', ...state(task) } });
    }
    case 'tasks/get':
    case 'tasks/cancel': {
      const task = tasks.get(params?.taskId);
      if (!task) return write({ jsonrpc: '2.0', id, error: { code: -32602, message: `unknown task ${params?.taskId}` } });
      if (method === 'tasks/get') return reply(id, state(task));
      task.cancelled = true;
      return reply(id, {});
    }
    default:
      return write({ jsonrpc: '2.0', id, error: { code: -32601, message: `Method not found: ${method}` } });
  }
});
