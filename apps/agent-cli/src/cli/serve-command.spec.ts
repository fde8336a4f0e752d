import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

import { AGENT_CLI_MAIN, runBuiltCli } from '../test-support/built-cli';
import { cliTestEnv } from '../test-support/cli-env';

/**
 * `agent-cli serve` as another MCP host uses it (SPEC A20): the SDK's Client starts the built CLI over
 * its own StdioClientTransport, lists the tools and calls them.
 */
const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

async function connect(dir: string, ...options: string[]): Promise<Client> {
  return connectAs(new Client({ name: 'serve-spec', version: '1.0.0' }), dir, ...options);
}

async function connectAs(client: Client, dir: string, ...options: string[]): Promise<Client> {
  clients.push(client);
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [AGENT_CLI_MAIN, 'serve', ...options],
      cwd: dir,
      env: cliTestEnv({ PATH: process.env.PATH ?? '', HOME: path.dirname(dir) }),
      stderr: 'pipe',
    }),
  );
  return client;
}

/** A folder with a file to read and a configuration offering a local skill (whose tools `serve` keeps to the agent). */
function workspace(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'agent-cli-serve-'));
  writeFileSync(path.join(dir, 'notes.txt'), 'the answer is 42\n');
  mkdirSync(path.join(dir, 'skills', 'notes'), { recursive: true });
  writeFileSync(path.join(dir, 'skills', 'notes', 'SKILL.md'), '---\nname: notes\ndescription: Take notes\n---\nWrite.\n');
  writeFileSync(path.join(dir, 'agent-cli.yaml'), 'skills:\n  folders: [skills]\n');
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
    // A host may run a read-only, closed-world tool unasked: only Bash reaches past the workspace.
    expect(tools.filter((t) => t.annotations?.openWorldHint).map((t) => t.name)).toEqual(['Bash']);
    expect(client.getServerVersion()?.name).toBe('agent-cli');
  });

  it('speaks 2026-07-28 to a client that pins it, and 2025 to one that does not', async () => {
    const dir = workspace();
    const modern = await connectAs(
      new Client({ name: 'serve-spec', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } }),
      dir,
    );
    expect(modern.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    expect((await modern.listTools()).tools.map((t) => t.name)).toContain('Read');
    expect(await modern.callTool({ name: 'Read', arguments: { path: 'notes.txt' } })).toMatchObject({
      isError: false,
      content: [{ type: 'text', text: expect.stringContaining('the answer is 42') }],
    });
    expect((await connect(dir)).getNegotiatedProtocolVersion()).toMatch(/^2025-/);
    // The agent's own client (era: auto) finds it out by server/discover.
    const self = await runBuiltCli(['servers', '--json', '--mcp-server', `self=${process.execPath} ${AGENT_CLI_MAIN} serve`], {
      cwd: dir,
      env: { PATH: process.env.PATH ?? '', HOME: path.dirname(dir) },
    });
    expect(JSON.parse(self.stdout).servers).toEqual([
      expect.objectContaining({ name: 'self', protocolVersion: '2026-07-28', toolCount: 6 }),
    ]);
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

describe('agent-cli serve keeps the file tools to the workspace (issue 43, item 8)', () => {
  /** A project (the workspace), a secret beside it, and links in the project that lead to the secret and its folder. */
  function project(): { base: string; dir: string; secret: string } {
    const base = mkdtempSync(path.join(tmpdir(), 'agent-cli-serve-'));
    const dir = path.join(base, 'project');
    const secret = path.join(base, 'secret.txt');
    mkdirSync(dir);
    writeFileSync(path.join(dir, 'notes.txt'), 'the answer is 42\n');
    writeFileSync(secret, 'SECRET outside the workspace\n');
    symlinkSync(secret, path.join(dir, 'link.txt'));
    symlinkSync(base, path.join(dir, 'up'));
    return { base, dir, secret };
  }

  it('under the documented entry (--yes --max-side-effect mutating) a path by ../, absolute or through a link is refused; inside it works', async () => {
    const { base, dir, secret } = project();
    const client = await connect(dir, '--workspace', dir, '--yes', '--max-side-effect', 'mutating');
    const writer = await connect(dir, '--yes'); // Write is destructive: only without the cap
    const outside = [
      { name: 'Read', arguments: { path: '../secret.txt' } },
      { name: 'Read', arguments: { path: secret } },
      { name: 'Read', arguments: { path: 'link.txt' } },
      { name: 'Read', arguments: { path: 'up/secret.txt' } },
      { name: 'Edit', arguments: { path: '../secret.txt', old_string: 'SECRET', new_string: 'EDITED' } },
      { name: 'Edit', arguments: { path: 'link.txt', old_string: 'SECRET', new_string: 'EDITED' } },
      { name: 'Write', arguments: { path: path.join(base, 'planted.txt'), content: 'x' } },
      { name: 'Write', arguments: { path: 'up/planted.txt', content: 'x' } },
      { name: 'Grep', arguments: { pattern: 'SECRET', path: '..' } },
      { name: 'Glob', arguments: { pattern: '*', path: base } },
    ];
    for (const call of outside) {
      const result = await (call.name === 'Write' ? writer : client).callTool(call);
      expect({ call, result }).toMatchObject({
        result: {
          isError: true,
          content: [{ text: expect.stringMatching(/refused: .* is outside the workspace .*workspaceRoots.*\[tool\.outside_workspace\]$/) }],
        },
      });
    }
    expect(readFileSync(secret, 'utf8')).toBe('SECRET outside the workspace\n');
    expect(existsSync(path.join(base, 'planted.txt'))).toBe(false);
    // A walk inside the workspace does not follow its links out.
    const grep = await client.callTool({ name: 'Grep', arguments: { pattern: 'SECRET' } });
    expect(JSON.stringify(grep)).not.toContain('SECRET outside');

    expect(await client.callTool({ name: 'Read', arguments: { path: 'notes.txt' } })).toMatchObject({
      isError: false,
      content: [{ text: 'the answer is 42' }],
    });
    expect(await client.callTool({ name: 'Edit', arguments: { path: 'notes.txt', old_string: '42', new_string: '43' } })).toMatchObject({
      isError: false,
    });
    expect(readFileSync(path.join(dir, 'notes.txt'), 'utf8')).toBe('the answer is 43\n');
  });

  it('refuses to start with the home directory as its workspace, naming --workspace', async () => {
    const { base } = project();
    const run = spawnSync(process.execPath, [AGENT_CLI_MAIN, 'serve'], {
      cwd: base,
      env: cliTestEnv({ PATH: process.env.PATH ?? '', HOME: base }),
      input: '',
      encoding: 'utf8',
    });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain(`the workspace would be ${realpathSync(base)}`);
    expect(run.stderr).toContain('pass --workspace <project folder>');
    expect(run.stderr).toContain('[serve.workspace_too_wide]');
  });
});
