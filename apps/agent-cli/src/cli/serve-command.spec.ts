import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

import { AGENT_CLI_MAIN } from '../test-support/built-cli';

/**
 * `agent-cli serve` as another MCP host uses it (SPEC A20): the SDK's Client starts the built CLI over
 * its own StdioClientTransport, lists the tools and calls them.
 */
const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

async function connect(dir: string, ...options: string[]): Promise<Client> {
  const client = new Client({ name: 'serve-spec', version: '1.0.0' });
  clients.push(client);
  await client.connect(
    new StdioClientTransport({ command: process.execPath, args: [AGENT_CLI_MAIN, 'serve', ...options], cwd: dir, stderr: 'pipe' }),
  );
  return client;
}

function workspace(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'agent-cli-serve-'));
  writeFileSync(path.join(dir, 'notes.txt'), 'the answer is 42\n');
  return dir;
}

describe('agent-cli serve', () => {
  it('lists the built-in tools with their side effects as annotations', async () => {
    const client = await connect(workspace());
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['Bash', 'Edit', 'Glob', 'Grep', 'Read', 'Write']);
    expect(tools.find((t) => t.name === 'Read')).toMatchObject({
      annotations: { readOnlyHint: true, destructiveHint: false },
      inputSchema: { type: 'object', required: ['path'] },
    });
    expect(tools.find((t) => t.name === 'Write')?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(client.getServerVersion()?.name).toBe('agent-cli');
  });

  it('runs a read-only call, refuses a mutating one without --yes, and runs it with --yes', async () => {
    const dir = workspace();
    const client = await connect(dir);
    expect(await client.callTool({ name: 'Read', arguments: { path: 'notes.txt' } })).toMatchObject({
      isError: false,
      content: [{ type: 'text', text: 'the answer is 42' }],
    });
    const refused = await client.callTool({ name: 'Write', arguments: { path: 'out.txt', content: 'x' } });
    expect(refused).toMatchObject({
      isError: true,
      content: [
        {
          type: 'text',
          text: expect.stringContaining('needs approval (it is destructive), but there is no terminal to ask on; run with --yes'),
        },
      ],
    });
    expect(await client.callTool({ name: 'Nope', arguments: {} })).toMatchObject({
      isError: true,
      content: [{ text: expect.stringContaining('no tool named "Nope"') }],
    });

    const approving = await connect(dir, '--yes');
    expect(await approving.callTool({ name: 'Write', arguments: { path: 'out.txt', content: 'written over MCP\n' } })).toMatchObject({
      isError: false,
    });
    expect(readFileSync(path.join(dir, 'out.txt'), 'utf8')).toBe('written over MCP\n');
  });

  it('refuses above --max-side-effect even with --yes, and reports bad arguments as an error result', async () => {
    const client = await connect(workspace(), '--yes', '--max-side-effect', 'read-only');
    expect(await client.callTool({ name: 'Bash', arguments: { command: 'echo hi' } })).toMatchObject({
      isError: true,
      content: [{ text: 'Bash is destructive, above --max-side-effect read-only; it was not run' }],
    });
    expect(await client.callTool({ name: 'Read', arguments: {} })).toMatchObject({
      isError: true,
      content: [{ text: expect.stringContaining('invalid arguments for Read') }],
    });
  });
});
