import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { EVERYTHING_BIN } from '@toolmesh/test-peers/mcp-servers';
import { type HttpPeer, startHttpPeer } from '@toolmesh/test-peers/peers/http-peer';

import { AGENT_CLI_MAIN, type CliRun, runBuiltCli } from '../test-support/built-cli';
import { cliTestEnv } from '../test-support/cli-env';
import { ExitCode } from './exit-codes';

/**
 * The built CLI (dist/apps/agent-cli/main.js) against real servers: server-everything and server-memory
 * from npm over stdio, the SDK's Streamable HTTP server, and a command that does not exist.
 */
const ROOT = path.join(__dirname, '../../../..');
const BIN = path.join(ROOT, 'node_modules/.bin');
const dir = mkdtempSync(path.join(tmpdir(), 'agent-cli-commands-'));
let peer: HttpPeer;

function cli(...args: string[]): Promise<CliRun> {
  return runBuiltCli(args, { cwd: dir, env: { ...process.env, WEB_TOKEN: 'web-token-value' } });
}

beforeAll(async () => {
  peer = await startHttpPeer();
  writeFileSync(
    path.join(dir, 'agent-cli.yaml'),
    `mcp:
  servers:
    - name: everything
      command: ${JSON.stringify(EVERYTHING_BIN)}
      args: [stdio]
      annotationTrust: trust
    - name: memory
      command: ${JSON.stringify(path.join(BIN, 'mcp-server-memory'))}
      env: { MEMORY_FILE_PATH: ${JSON.stringify(path.join(dir, 'memory.jsonl'))} }
    - name: web
      transport: streamable-http
      url: ${peer.url}
      headers: { Authorization: "Bearer \${WEB_TOKEN}" }
    - name: broken
      command: /nonexistent/mcp-server
`,
  );
  writeFileSync(path.join(dir, 'good.yaml'), `mcp:\n  servers:\n    - name: web\n      url: ${peer.url}\n`);
  writeFileSync(
    path.join(dir, 'files.yaml'),
    `mcp:\n  servers:\n    - name: files\n      command: ${JSON.stringify(path.join(BIN, 'mcp-server-filesystem'))}\n      args: [${JSON.stringify(dir)}]\n      annotationTrust: trust\n`,
  );
  writeFileSync(
    path.join(dir, 'claude_desktop_config.json'),
    JSON.stringify({ mcpServers: { everything: { command: EVERYTHING_BIN, args: ['stdio'] } } }),
  );
});
afterAll(() => peer.stop());

describe('agent-cli servers', () => {
  it("connects all servers, shows each one's status as JSON on stdout, progress on stderr, and exits 4 for the failed one", async () => {
    const { code, stdout, stderr } = await cli('servers', '--json');

    expect(code).toBe(4);
    const { servers } = JSON.parse(stdout) as {
      servers: Array<{ name: string; state: string; toolCount: number; error?: string; elapsedMs: number }>;
    };
    expect(servers.map((s) => [s.name, s.state])).toEqual([
      ['everything', 'connected'],
      ['memory', 'connected'],
      ['web', 'connected'],
      ['broken', 'failed'],
    ]);
    expect(servers.find((s) => s.name === 'web')?.toolCount).toBe(4); // add, echo, slow, notify-later
    expect(servers.find((s) => s.name === 'broken')?.error).toContain('could not start "/nonexistent/mcp-server"');
    expect(stderr).toContain('connecting to 4 MCP server(s): everything, memory, web, broken');
    expect(stderr).toMatch(/FAILED broken \(\d+ ms\)/);
    expect(stderr).not.toContain('web-token-value');
  });

  it('prints a table and exits 0 when every server connected', async () => {
    const { code, stdout } = await cli('servers', '--config', 'good.yaml');
    expect(code).toBe(0);
    expect(stdout).toMatch(
      /^SERVER\s+TRANSPORT\s+STATE\s+PROTOCOL\s+TOOLS\s+TIME\s+DETAIL\nweb\s+streamable-http\s+connected\s+2025-11-25\s+4\s+\d+ ms\s+sdk-http-peer 1\.0\.0\n$/,
    );
  });

  it('imports the mcpServers JSON of Claude Desktop / Claude Code', async () => {
    const { code, stdout } = await cli('servers', '--json', '--config', 'claude_desktop_config.json');
    expect(code).toBe(0);
    expect(JSON.parse(stdout).servers).toEqual([expect.objectContaining({ name: 'everything', state: 'connected', transport: 'stdio' })]);
  });
});

describe('agent-cli output', () => {
  it('treats a reader that closes stdout early (| head) as normal, not as a crash', async () => {
    const child = spawn(process.execPath, [AGENT_CLI_MAIN, 'tools', '--config', 'good.yaml'], { cwd: dir, env: cliTestEnv(process.env) });
    child.stdout.destroy(); // the reader is gone before the CLI writes
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(stderr).not.toContain('internal error');
    expect(code).toBe(0);
  });
});

describe('agent-cli tools', () => {
  it('lists every tool of every connected server with the side effects its trust level gives', async () => {
    const { code, stdout } = await cli('tools', '--json');
    expect(code).toBe(4); // broken is missing
    const tools = new Map(
      (JSON.parse(stdout).tools as Array<{ name: string; sideEffects: unknown; inputSchema: unknown }>).map((t) => [t.name, t]),
    );
    expect(tools.get('mcp__everything__echo')?.sideEffects).toEqual({ level: 'read-only', destructive: false, basis: 'server-claim' }); // trust
    expect(tools.get('mcp__memory__read_graph')?.sideEffects).toEqual({ level: 'mutating', destructive: true, basis: 'assumed' }); // ignore: annotations unused
    expect(tools.get('mcp__web__add')?.inputSchema).toMatchObject({ type: 'object', required: ['a', 'b'] });
  });
});

describe('agent-cli call', () => {
  it('calls a tool over Streamable HTTP and prints its text', async () => {
    expect(await cli('call', 'mcp__web__add', '{"a":40,"b":2}', '--config', 'good.yaml', '--yes')).toMatchObject({
      code: 0,
      stdout: '42\n',
    });
  });

  it('calls a stdio tool and prints the whole result with --json', async () => {
    const { code, stdout } = await cli('call', 'mcp__everything__get-sum', '{"a":1,"b":2}', '--json');
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual({ isError: false, content: [{ type: 'text', text: expect.stringContaining('3') }] });
  });

  it('reads a file through server-filesystem, and relays its refusal of a path outside its root as an error result', async () => {
    writeFileSync(path.join(dir, 'note.txt'), 'written by the test\n');
    expect(
      await cli('call', 'mcp__files__read_text_file', JSON.stringify({ path: path.join(dir, 'note.txt') }), '--config', 'files.yaml'),
    ).toMatchObject({
      code: 0,
      stdout: 'written by the test\n\n',
    });
    const outside = await cli('call', 'mcp__files__read_text_file', '{"path":"/etc/hostname"}', '--config', 'files.yaml');
    expect(outside).toMatchObject({ code: 1, stdout: '', stderr: expect.stringContaining('Access denied') });
  });

  it("exits 1 with the message on stderr when arguments break the tool's schema", async () => {
    const { code, stdout, stderr } = await cli('call', 'mcp__web__add', '{"a":"x"}', '--config', 'good.yaml');
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toContain('invalid arguments for mcp__web__add');
  });

  it("exits 4 when the tool's server could not be connected", async () => {
    const { code, stderr } = await cli('call', 'mcp__broken__anything');
    expect(code).toBe(4);
    expect(stderr).toMatch(/server "broken" is unavailable: could not connect.*\[server\.unavailable\]/);
  });
});

describe('agent-cli built-in tools', () => {
  it('tools --json lists Read, Write, Edit, Glob, Grep, Bash, WaitForEvent and ToolSearch with their side effects, next to the MCP tools', async () => {
    const { code, stdout } = await cli('tools', '--json', '--config', 'good.yaml');
    expect(code).toBe(0);
    const tools = JSON.parse(stdout).tools as Array<{
      name: string;
      sideEffects: unknown;
      inputSchema: { additionalProperties?: unknown };
    }>;
    const sideEffects = Object.fromEntries(tools.filter((t) => !t.name.startsWith('mcp__')).map((t) => [t.name, t.sideEffects]));
    expect(sideEffects).toEqual({
      Bash: { level: 'mutating', destructive: true, basis: 'declared' },
      Edit: { level: 'mutating', destructive: false, basis: 'declared' },
      Glob: { level: 'read-only', destructive: false, basis: 'declared' },
      Grep: { level: 'read-only', destructive: false, basis: 'declared' },
      Read: { level: 'read-only', destructive: false, basis: 'declared' },
      Write: { level: 'mutating', destructive: true, basis: 'declared' },
      WaitForEvent: { level: 'read-only', destructive: false, basis: 'declared' },
      ToolSearch: { level: 'read-only', destructive: false, basis: 'declared' },
    });
    expect(tools.find((t) => t.name === 'Read')?.inputSchema.additionalProperties).toBe(false);
    expect(tools.map((t) => t.name)).toContain('mcp__web__add');
  });

  it('tools prints the built-in tools in the table with their side effects', async () => {
    const { stdout } = await cli('tools', '--config', 'good.yaml');
    expect(stdout).toMatch(/^Bash\s+mutating, destructive\s+Runs a command/m);
    expect(stdout).toMatch(/^Edit\s+mutating\s+Replaces/m);
    expect(stdout).toMatch(/^Read\s+read-only\s+Reads a text file/m);
    expect(stdout).toMatch(/^mcp__web__add\s+mutating, destructive \(assumed: server claims ignored\)/m);
    expect((await cli('tools')).stdout).toMatch(/^mcp__everything__echo\s+read-only \(the server's claim\)/m); // annotationTrust: trust
  });

  it('call Write writes a file relative to the working directory, and call Read reads it back', async () => {
    const written = await cli(
      'call',
      'Write',
      JSON.stringify({ path: 'built-in/out.txt', content: 'hello from Write\n' }),
      '--config',
      'good.yaml',
      '--yes',
    );
    expect(written).toMatchObject({ code: 0, stdout: 'wrote 17 byte(s) to built-in/out.txt\n' });
    expect(readFileSync(path.join(dir, 'built-in/out.txt'), 'utf8')).toBe('hello from Write\n');
    expect(await cli('call', 'Read', '{"path":"built-in/out.txt"}', '--config', 'good.yaml')).toMatchObject({
      code: 0,
      stdout: 'hello from Write\n',
    });
  });

  it('call runs a mutating call without --yes and without a terminal: the user typed it (SPEC A20); the cap still refuses', async () => {
    const { code } = await cli('call', 'Write', JSON.stringify({ path: 'built-in/explicit.txt', content: 'x' }), '--config', 'good.yaml');
    expect(code).toBe(ExitCode.Ok);
    expect(readFileSync(path.join(dir, 'built-in/explicit.txt'), 'utf8')).toBe('x');

    const capped = await cli(
      'call',
      'Write',
      JSON.stringify({ path: 'built-in/refused.txt', content: 'x' }),
      '--config',
      'good.yaml',
      '--max-side-effect',
      'read-only',
    );
    expect(capped.code).toBe(ExitCode.Denied);
    expect(existsSync(path.join(dir, 'built-in/refused.txt'))).toBe(false);
  });

  it('--max-side-effect read-only refuses a mutating MCP tool without running it, even with --yes', async () => {
    const { code, stderr } = await cli(
      'call',
      'mcp__web__add',
      '{"a":1,"b":2}',
      '--config',
      'good.yaml',
      '--yes',
      '--max-side-effect',
      'read-only',
    );
    expect(code).toBe(ExitCode.Denied);
    expect(stderr).toContain('mcp__web__add is destructive, above --max-side-effect read-only; it was not run');
    expect(
      await cli('call', 'Read', '{"path":"built-in/out.txt"}', '--config', 'good.yaml', '--max-side-effect', 'read-only'),
    ).toMatchObject({ code: 0 });
    expect(await cli('call', 'Read', '{}', '--max-side-effect', 'everything')).toMatchObject({
      code: ExitCode.Usage,
      stderr: expect.stringContaining('--max-side-effect must be one of read-only, mutating, destructive'),
    });
  });

  it('call Read of a missing file exits 1 with the error on stderr', async () => {
    const { code, stdout, stderr } = await cli('call', 'Read', '{"path":"no-such-file.txt"}', '--config', 'good.yaml');
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toContain('no-such-file.txt: no such file or directory');
  });
});
