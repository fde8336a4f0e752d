import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { McpClient, type ServerRequestHandlers } from '@toolmesh/mcp-client';
import { SchemaCompiler } from '@toolmesh/protocol';
import { REPO_ROOT } from '@toolmesh/test-peers/server-process';
import { ChildProcessTransport } from '@toolmesh/transport-stdio';

import { resultText } from '../../tools/tool';
import { McpTool } from '../mcp-tool';
import { BackgroundTasks } from './background-tasks';

/**
 * The agent's tasks at 2026-07-28 (SEP-2663) against a real process, tools/test/peers/tasks-peer.mjs: every
 * call to a server offering the extension declares it, the server decides, the task is polled with tasks/get
 * until its result comes inline, and /tasks cancel's tasks/cancel reaches the server.
 */
const PEER = path.join(REPO_ROOT, 'tools/test/peers/tasks-peer.mjs');
const effects = { level: 'read-only', destructive: false, basis: 'assumed' } as const;

/** The peer as a connected client whose forms `elicitation` answers, with `tool(name)` an agent tool of it following tasks in `background`. */
async function connect(record: string, serverRequests: ServerRequestHandlers = {}) {
  const client = new McpClient(
    new ChildProcessTransport({ command: process.execPath, args: [PEER, '--task-ms=300', `--record=${record}`] }),
    {
      serverName: 'jobs',
      clientInfo: { name: 'modern-tasks-test', version: '0' },
      requestTimeoutMs: 5000,
      era: '2026-07-28',
      serverRequests,
    },
  );
  await client.connect();
  const background = new BackgroundTasks(undefined, () => undefined);
  const schemas = new SchemaCompiler();
  const tool = (name: string) => {
    const definition = { name, inputSchema: { type: 'object' as const } };
    return new McpTool(client, definition, effects, schemas.compile(definition.inputSchema), undefined, undefined, background);
  };
  return { client, background, tool };
}

const recordFile = () => path.join(mkdtempSync(path.join(tmpdir(), 'modern-tasks-')), 'requests.txt');

it('a 2026-07-28 server makes the call a task; it is polled to its inline result, and a cancel reaches the server', async () => {
  const record = recordFile();
  const { client, background, tool } = await connect(record);
  try {
    expect(resultText(await tool('report').execute({ topic: 'tides' }))).toMatch(/^mcp__jobs__report is running as task task-1/);
    expect(resultText(await tool('echo').execute({ say: 'hi' }))).toBe('{"say":"hi"}');
    await background.nextEnded();
    const [ended] = background.takeEnded();
    expect(ended).toMatchObject({ task: { taskId: 'task-1', status: 'completed' } });
    expect(resultText(ended.result)).toBe('report: tides');

    await tool('report').execute({ topic: 'waves' });
    expect(await background.cancel('task-2')).toBe('task task-2 (mcp__jobs__report) cancelled; its server acknowledged');
    expect(background.takeEnded()).toEqual([
      expect.objectContaining({ task: expect.objectContaining({ taskId: 'task-2', status: 'cancelled' }) }),
    ]);

    const requests = readFileSync(record, 'utf8').trimEnd().split('\n');
    expect(requests).toEqual(expect.arrayContaining(['tools/call tasks', 'tasks/get tasks', 'tasks/cancel tasks']));
  } finally {
    background.close();
    await client.close();
  }
}, 20_000);

it('a task that asks for input gets it through the elicitation handler once, with tasks/update, and then completes', async () => {
  const record = recordFile();
  const asked: string[] = [];
  const { client, background, tool } = await connect(record, {
    elicitation: async (params) => {
      asked.push(params.message);
      return { action: 'accept', content: { name: 'Luca' } };
    },
  });
  try {
    expect(resultText(await tool('greet').execute({}))).toMatch(/^mcp__jobs__greet is running as task task-1/);
    await background.nextEnded();
    const [ended] = background.takeEnded();
    expect(ended).toMatchObject({ task: { taskId: 'task-1', status: 'completed' } });
    expect(resultText(ended.result)).toBe('hello Luca');
    // The peer repeats its request on every poll until it takes the answer: the user was asked once.
    expect(asked).toEqual(['Whom shall I greet?']);
    const requests = readFileSync(record, 'utf8').trimEnd().split('\n');
    expect(requests.filter((line) => line.startsWith('tasks/update'))).toEqual(['tasks/update tasks']);
    expect(requests.filter((line) => line.startsWith('tasks/get')).length).toBeGreaterThan(2);
  } finally {
    background.close();
    await client.close();
  }
}, 20_000);

it('a task that asks for input the agent cannot give is cancelled at its server, and the call fails saying why', async () => {
  const record = recordFile();
  const { client, background, tool } = await connect(record); // no elicitation handler: the form cannot be answered
  try {
    await tool('greet').execute({});
    await background.nextEnded();
    const [ended] = background.takeEnded();
    expect(ended).toMatchObject({ task: { taskId: 'task-1', status: 'cancelled' }, result: { isError: true } });
    expect(resultText(ended.result)).toMatch(
      /^the task task-1 asked for input the agent could not give \(.*elicitation\/create.*\); it was cancelled$/,
    );
    expect(readFileSync(record, 'utf8')).toContain('tasks/cancel tasks');
  } finally {
    background.close();
    await client.close();
  }
}, 20_000);
