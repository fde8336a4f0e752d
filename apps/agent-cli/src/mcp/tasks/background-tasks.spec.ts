import path from 'node:path';

import { McpClient } from '@toolmesh/mcp-client';
import { SchemaCompiler } from '@toolmesh/protocol';
import { EVERYTHING_SCRIPT } from '@toolmesh/test-peers/mcp-servers';
import { REPO_ROOT } from '@toolmesh/test-peers/server-process';
import { ChildProcessTransport } from '@toolmesh/transport-stdio';

import { resultText } from '../../tools/tool';
import { McpTool } from '../mcp-tool';
import { BackgroundTasks } from './background-tasks';

/**
 * McpTool with BackgroundTasks against real servers over stdio: server-everything (2025-11-25 tasks) and our
 * stdio peer, which offers none. Only a tool its server runs as a task becomes one; every other call is as before.
 */
const PEER = path.join(REPO_ROOT, 'tools/test/peers/stdio-peer.mjs');
const effects = { level: 'read-only', destructive: false, basis: 'assumed' } as const;

async function toolsOf(args: string[], background: BackgroundTasks) {
  const client = new McpClient(new ChildProcessTransport({ command: process.execPath, args }), {
    serverName: 'srv',
    clientInfo: { name: 'background-tasks-test', version: '0' },
    requestTimeoutMs: 10_000,
  });
  await client.connect();
  const stop = background.listen(client);
  const definitions = await client.listTools();
  const schemas = new SchemaCompiler();
  const tool = (name: string) => {
    const definition = definitions.find((d) => d.name === name);
    if (!definition) throw new Error(`no tool ${name}`);
    return new McpTool(client, definition, effects, schemas.compile(definition.inputSchema), undefined, undefined, background);
  };
  return { tool, close: () => (stop(), background.close(), client.close()) };
}

it('a task tool of a server with tasks gives its handle at once and its result when it ends, told on the rewake path; its other tools are as before', async () => {
  const events: Array<{ type: string; server: string }> = [];
  const background = new BackgroundTasks({ publish: (event) => events.push(event) }, () => undefined);
  const { tool, close } = await toolsOf([EVERYTHING_SCRIPT, 'stdio'], background);
  try {
    const handle = await tool('simulate-research-query').execute({ topic: 'kelp' });
    expect(resultText(handle)).toMatch(/^mcp__srv__simulate-research-query is running as task \S+ \(status working\)/);
    expect(background.list()).toEqual([
      expect.objectContaining({ server: 'srv', tool: 'mcp__srv__simulate-research-query', status: 'working' }),
    ]);
    expect(await tool('echo').execute({ message: 'meanwhile' })).toMatchObject({ isError: false, content: [{ text: 'Echo: meanwhile' }] });

    await background.nextEnded();
    const [ended] = background.takeEnded();
    expect(ended.task.status).toBe('completed');
    expect(resultText(ended.result)).toContain('# Research Report: kelp');
    expect(events).toEqual([expect.objectContaining({ type: 'task.completed', server: 'srv' })]);
    expect(background.list()).toEqual([]);
  } finally {
    await close();
  }
}, 20_000);

it('a server without tasks is called as before', async () => {
  const background = new BackgroundTasks(undefined, () => undefined);
  const { tool, close } = await toolsOf([PEER], background);
  try {
    expect(resultText(await tool('echo').execute({ text: 'hi' }))).toBe('{"text":"hi"}');
    expect(background.list()).toEqual([]);
  } finally {
    await close();
  }
});
