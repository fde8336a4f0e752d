import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { McpClient } from '@toolmesh/mcp-client';
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

it('a 2026-07-28 server makes the call a task; it is polled to its inline result, and a cancel reaches the server', async () => {
  const record = path.join(mkdtempSync(path.join(tmpdir(), 'modern-tasks-')), 'requests.txt');
  const client = new McpClient(
    new ChildProcessTransport({ command: process.execPath, args: [PEER, '--task-ms=300', `--record=${record}`] }),
    {
      serverName: 'jobs',
      clientInfo: { name: 'modern-tasks-test', version: '0' },
      requestTimeoutMs: 5000,
      era: '2026-07-28',
    },
  );
  await client.connect();
  const background = new BackgroundTasks(undefined, () => undefined);
  try {
    const schemas = new SchemaCompiler();
    const tool = (name: string) => {
      const definition = { name, inputSchema: { type: 'object' as const } };
      return new McpTool(client, definition, effects, schemas.compile(definition.inputSchema), undefined, undefined, background);
    };
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
