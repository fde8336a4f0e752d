import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

/**
 * The installable packages (docs/adr/0020-installable-packages.md): both apps are packed as npm tarballs,
 * installed into a temporary prefix outside the repository with `npm install -g --offline` (they declare no
 * dependencies, so nothing is fetched), and run from a folder outside the repository, where nothing of the
 * repository's node_modules can be resolved. The `serve` host entry of docs/agent-cli.md is started as an
 * MCP host would, through the installed bin on PATH.
 */
const ROOT = path.resolve(__dirname, '../../..');
const rootVersion = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const SERVER_MEMORY = path.join(ROOT, 'node_modules/@modelcontextprotocol/server-memory/dist/index.js');

let scratch: string;
let bin: string;
let elsewhere: string;

function run(command: string, args: string[], cwd: string, env: Record<string, string> = {}) {
  const result = spawnSync(command, args, {
    cwd,
    encoding: 'utf8',
    timeout: 120_000,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? scratch, ...env },
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

function pack(app: string): string {
  const built = run(
    process.execPath,
    [path.join(ROOT, 'tools/packages/build-package.mjs'), app, '--pack', path.join(scratch, 'tarballs')],
    ROOT,
  );
  expect(built).toMatchObject({ status: 0 });
  return built.stdout.trim();
}

/** The JSON host entry under docs/agent-cli.md's "serve" section: { mcpServers: { name: { command, args } } }. */
/** How docs/agent-cli.md's serve entry names the project folder. */
const PROJECT_PLACEHOLDER = '/path/to/project';

function documentedServeEntry(): { command: string; args: string[] } {
  const doc = readFileSync(path.join(ROOT, 'docs/agent-cli.md'), 'utf8');
  const section = doc.slice(doc.indexOf('## serve: the built-in tools for other hosts'));
  const json = /```json\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
  const { mcpServers } = JSON.parse(json) as { mcpServers: Record<string, { command: string; args: string[] }> };
  return Object.values(mcpServers)[0];
}

beforeAll(() => {
  scratch = mkdtempSync(path.join(tmpdir(), 'toolmesh-packages-'));
  const tarballs = [pack('agent-cli'), pack('gateway')];
  const prefix = path.join(scratch, 'prefix');
  const installed = run('npm', ['install', '-g', '--offline', '--no-audit', '--no-fund', '--prefix', prefix, ...tarballs], scratch);
  expect(installed).toMatchObject({ status: 0 });
  bin = path.join(prefix, 'bin');
  elsewhere = mkdtempSync(path.join(tmpdir(), 'toolmesh-elsewhere-'));
}, 300_000);

afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
  rmSync(elsewhere, { recursive: true, force: true });
});

describe('installable packages', () => {
  it('are single bundles with no dependencies, at the root version', () => {
    for (const name of ['agent-cli', 'gateway']) {
      const dir = path.join(scratch, 'prefix/lib/node_modules/@toolmesh', name);
      const manifest = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as Record<string, unknown>;
      expect(manifest).toMatchObject({ name: `@toolmesh/${name}`, version: rootVersion });
      expect(manifest['dependencies']).toBeUndefined();
      expect(existsSync(path.join(dir, 'node_modules'))).toBe(false);
    }
  });

  it('toolmesh-agent --version and toolmesh-gateway --version print the root version; --help works from another folder', () => {
    expect(run(path.join(bin, 'toolmesh-agent'), ['--version'], elsewhere)).toMatchObject({ status: 0, stdout: `${rootVersion}\n` });
    expect(run(path.join(bin, 'toolmesh-gateway'), ['--version'], elsewhere)).toMatchObject({ status: 0, stdout: `${rootVersion}\n` });
    const help = run(path.join(bin, 'toolmesh-gateway'), ['--help'], elsewhere);
    expect(help).toMatchObject({ status: 0, stdout: expect.stringContaining('toolmesh-gateway [--config gateway.yaml]') });
  });

  it('toolmesh-agent calls itself toolmesh-agent in help, usage and errors, also when its bundle is run by path', () => {
    const help = run(path.join(bin, 'toolmesh-agent'), ['--help'], elsewhere);
    expect(help).toMatchObject({ status: 0, stdout: expect.stringContaining('Usage:\n  toolmesh-agent <command> [options]') });
    expect(help.stdout).not.toMatch(/\bagent-cli (<command>|mcp|run|call)/);
    const mcpHelp = run(path.join(bin, 'toolmesh-agent'), ['mcp', '--help'], elsewhere);
    expect(mcpHelp.stdout).toContain('Usage: toolmesh-agent mcp add');
    const unknown = run(path.join(bin, 'toolmesh-agent'), ['frobnicate'], elsewhere);
    expect(unknown).toMatchObject({
      status: 2,
      stderr: 'toolmesh-agent: unknown command "frobnicate"\nRun "toolmesh-agent --help" for usage.\n',
    });
    // `node <the bundle>` does not say which bin: the package's bin name stands in.
    const bundle = realpathSync(path.join(bin, 'toolmesh-agent'));
    expect(run(process.execPath, [bundle, 'frobnicate'], elsewhere).stderr).toMatch(/^toolmesh-agent: unknown command/);
  });

  it('toolmesh-gateway lint-source reads an OpenAPI document in that folder with the bundled parser, and exits 1 for a refused operation', () => {
    writeFileSync(path.join(elsewhere, 'petstore.json'), readFileSync(require.resolve('@readme/oas-examples/3.0/json/petstore.json')));
    const lint = run(
      path.join(bin, 'toolmesh-gateway'),
      ['lint-source', 'petstore.json', '--operations', 'getPetById,findPetsByStatus'],
      elsewhere,
    );
    expect(lint).toMatchObject({
      status: 1,
      stdout: expect.stringContaining('tools (1):\n  getPetById        GET /pet/{petId}\nrefused (1):'),
    });
  });

  it('toolmesh-agent tools lists the tools of a stdio server configured in that folder', () => {
    writeFileSync(
      path.join(elsewhere, 'agent-cli.yaml'),
      `mcp:\n  servers:\n    - name: memory\n      command: ${JSON.stringify(process.execPath)}\n      args: [${JSON.stringify(SERVER_MEMORY)}]\n      env: { MEMORY_FILE_PATH: ${JSON.stringify(path.join(elsewhere, 'memory.jsonl'))} }\n`,
    );
    const tools = run(path.join(bin, 'toolmesh-agent'), ['tools', '--json'], elsewhere);
    expect(tools.status).toBe(0);
    const names = (JSON.parse(tools.stdout) as { tools: { name: string }[] }).tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['mcp__memory__create_entities', 'mcp__memory__read_graph', 'Read']));
  }, 120_000);

  it('the documented serve host entry runs the installed bin for an SDK client', async () => {
    const entry = documentedServeEntry();
    expect(entry.command).toBe('toolmesh-agent');
    // The entry names the project as a placeholder, which the user replaces with their folder.
    expect(entry.args).toContain(PROJECT_PLACEHOLDER);
    const args = entry.args.map((arg) => (arg === PROJECT_PLACEHOLDER ? elsewhere : arg));
    writeFileSync(path.join(elsewhere, 'notes.txt'), 'installed and serving\n');
    const client = new Client({ name: 'host', version: '1.0.0' });
    const env = { PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}`, HOME: scratch };
    // Started where a host may start it (not the project), so the workspace is the one the entry names.
    await client.connect(new StdioClientTransport({ command: entry.command, args, cwd: scratch, env, stderr: 'pipe' }));
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toContain('Read');
      expect(await client.callTool({ name: 'Read', arguments: { path: 'notes.txt' } })).toMatchObject({
        isError: false,
        content: [{ type: 'text', text: 'installed and serving' }],
      });
    } finally {
      await client.close();
    }
  }, 120_000);
});
