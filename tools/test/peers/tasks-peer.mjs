#!/usr/bin/env node
/**
 * A 2026-07-28 MCP server over stdio with the Tasks extension (SEP-2663), for the agent's tasks client at
 * that era (server-everything covers 2025-11-25). It declares `io.modelcontextprotocol/tasks` in
 * `server/discover`; a `tools/call` of "report" that declares the extension in its `_meta` becomes a task
 * that completes after --task-ms (default 500) with "report: <arguments.topic>"; one that does not gets the
 * result at once. `tasks/get` answers the task's state with the result inline, `tasks/cancel` acknowledges
 * and cancels. "echo" always answers at once. "greet" becomes a task that first asks for input: it is
 * `input_required` with an elicitation of the name (key "name") until a `tasks/update` answers it, and
 * keeps asking for 200 ms after that (the answer is taken eventually, as the extension allows), then
 * completes after --task-ms with "hello <name>" (or "no name: <action>").
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
  { name: 'greet', description: 'Greets whoever answers, as a task that asks for a name', inputSchema: { type: 'object' } },
];
const ASK_NAME = {
  method: 'elicitation/create',
  params: {
    mode: 'form',
    message: 'Whom shall I greet?',
    requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
  },
};
const TAKES_ANSWER_MS = 200;

/** A greet task waits for its name until the answer is taken; its job runs from then. */
function waiting(task) {
  return task.asks && (task.answer === undefined || Date.now() < task.answeredAt + TAKES_ANSWER_MS);
}

function greeting(answer) {
  return answer.action === 'accept' ? `hello ${answer.content?.name}` : `no name: ${answer.action}`;
}

function state(task) {
  if (!task.cancelled && waiting(task)) return { ...base(task, 'input_required'), inputRequests: { name: ASK_NAME } };
  const doneAt = task.asks ? task.answeredAt + TAKES_ANSWER_MS + taskMs : task.doneAt;
  const status = task.cancelled ? 'cancelled' : Date.now() >= doneAt ? 'completed' : 'working';
  return {
    ...base(task, status),
    ...(status === 'completed' && { result: text(task.asks ? greeting(task.answer) : `report: ${task.topic}`) }),
  };
}

function base(task, status) {
  return {
    taskId: task.id,
    status,
    createdAt: task.createdAt,
    lastUpdatedAt: new Date().toISOString(),
    ttlMs: 60_000,
    pollIntervalMs: 100,
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
        asks: params.name === 'greet',
        topic: params.arguments?.topic,
        doneAt: Date.now() + taskMs,
        createdAt: new Date().toISOString(),
      };
      tasks.set(task.id, task);
      return write({ jsonrpc: '2.0', id, result: { resultType: 'task', ...state(task) } });
    }
    case 'tasks/get':
    case 'tasks/update':
    case 'tasks/cancel': {
      const task = tasks.get(params?.taskId);
      if (!task) return write({ jsonrpc: '2.0', id, error: { code: -32602, message: `unknown task ${params?.taskId}` } });
      if (method === 'tasks/get') return reply(id, state(task));
      if (method === 'tasks/update') {
        // An answer to a key not outstanding is ignored, as the extension says.
        const answer = params.inputResponses?.name;
        if (answer && task.asks && task.answer === undefined) Object.assign(task, { answer, answeredAt: Date.now() });
        return reply(id, {});
      }
      task.cancelled = true;
      return reply(id, {});
    }
    default:
      return write({ jsonrpc: '2.0', id, error: { code: -32601, message: `Method not found: ${method}` } });
  }
});
