import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { EVERYTHING_BIN } from '@toolmesh/test-peers/mcp-servers';

import { parseConfig } from '../config/load-config';
import { refused, runCliInProcess } from '../test-support/in-process-cli';
import { ExitCode } from './exit-codes';
import { COMMAND_HELP } from './help';

/**
 * `agent-cli mcp add | remove | list | get` (SPEC A20) through runCli on real files: the round trip keeps
 * the rest of the file, and what it adds is what `servers` then connects (server-everything over stdio).
 */

const cli = (cwd: string, ...args: string[]) => runCliInProcess(args, { cwd });

/** What `mcp add` says when it was given no --roots. */
const NO_ROOTS = 'roots: none (it keeps the folders its own arguments give; --roots <folder> offers folders, --roots . this one)';

const ORIGINAL = `# kept by the round trip
llm:
  model: llama3.1 # a comment on the model
mcp:
  servers:
    - name: files
      command: npx
      args: [-y, "@modelcontextprotocol/server-filesystem", /tmp]
rewake:
  rules: []
`;

describe('agent-cli mcp', () => {
  it('add then remove gives back the file as it was, comments and other settings included', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'agent-cli-mcp-'));
    const file = path.join(dir, 'agent-cli.yaml');
    writeFileSync(file, ORIGINAL);

    const added = await cli(
      dir,
      'mcp',
      'add',
      'memory',
      '-e',
      'MEMORY_FILE_PATH=${HOME}/memory.jsonl',
      '--',
      'npx',
      '-y',
      '@modelcontextprotocol/server-memory',
    );
    expect(added).toMatchObject({
      code: ExitCode.Ok,
      stdout: `added the stdio server "memory" (npx -y @modelcontextprotocol/server-memory) to ${file}\n${NO_ROOTS}\n`,
    });
    const web = await cli(dir, 'mcp', 'add', 'docs', 'https://docs.example.com/mcp', '-H', 'Authorization: Bearer ${DOCS_TOKEN}');
    expect(web.code).toBe(ExitCode.Ok);
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('# a comment on the model');
    expect(text).toContain('MEMORY_FILE_PATH: ${HOME}/memory.jsonl');
    expect(text).toContain('Authorization: Bearer ${DOCS_TOKEN}');

    const listed = await cli(dir, 'mcp', 'list');
    expect(listed.stdout).toMatch(
      /^SERVER\s+TRANSPORT\s+ERA\s+COMMAND \/ URL\nfiles\s+stdio\s+auto\s+npx -y @modelcontextprotocol\/server-filesystem \/tmp\nmemory\s+stdio\s+auto\s+npx -y @modelcontextprotocol\/server-memory\ndocs\s+streamable-http\s+auto\s+https:\/\/docs\.example\.com\/mcp\n$/,
    );
    const got = await cli(dir, 'mcp', 'get', 'docs', '--json');
    expect(JSON.parse(got.stdout)).toEqual({
      name: 'docs',
      transport: 'streamable-http',
      url: 'https://docs.example.com/mcp',
      headers: { Authorization: 'Bearer ${DOCS_TOKEN}' },
    });

    expect(await cli(dir, 'mcp', 'remove', 'docs')).toMatchObject({
      code: ExitCode.Ok,
      stdout: `removed the server "docs" from ${file}\n`,
    });
    expect(await cli(dir, 'mcp', 'remove', 'memory')).toMatchObject({ code: ExitCode.Ok });
    expect(readFileSync(file, 'utf8')).toBe(ORIGINAL);
  });

  it('creates the file when there is none, and servers then connects what was added', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'agent-cli-mcp-'));
    expect((await cli(dir, 'mcp', 'add', 'everything', '--', EVERYTHING_BIN, 'stdio')).code).toBe(ExitCode.Ok);
    expect(existsSync(path.join(dir, 'agent-cli.yaml'))).toBe(true);

    const { code, stdout } = await cli(dir, 'servers', '--json');
    expect(code).toBe(ExitCode.Ok);
    expect(JSON.parse(stdout).servers).toEqual([expect.objectContaining({ name: 'everything', state: 'connected' })]);
  });

  it("edits an mcpServers JSON file in its own format, keeping the other hosts' keys", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'agent-cli-mcp-'));
    const file = path.join(dir, 'claude_desktop_config.json');
    writeFileSync(file, JSON.stringify({ mcpServers: {}, globalShortcut: 'Ctrl+Space' }));

    expect((await cli(dir, 'mcp', 'add', '--config', file, '--transport', 'http', 'docs', 'https://docs.example.com/mcp')).code).toBe(
      ExitCode.Ok,
    );
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      mcpServers: { docs: { type: 'http', url: 'https://docs.example.com/mcp' } },
      globalShortcut: 'Ctrl+Space',
    });
    expect((await cli(dir, 'mcp', 'list', '--config', file, '--json')).stdout).toContain('"name": "docs"');
  });

  it('refuses what it cannot write, before touching the file', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'agent-cli-mcp-'));
    const file = path.join(dir, 'agent-cli.yaml');
    writeFileSync(file, ORIGINAL);

    expect(await cli(dir, 'mcp', 'add', 'files', 'x')).toMatchObject(
      refused(ExitCode.Usage, /already has a server named "files"; remove it first.*\[config\.duplicate_server\]/),
    );
    expect(await cli(dir, 'mcp', 'add', 'My Server', 'x')).toMatchObject(refused(ExitCode.Usage, '"my-server"'));
    expect(await cli(dir, 'mcp', 'add', 'web', 'ftp://x/mcp', '--transport', 'http')).toMatchObject(
      refused(ExitCode.Config, 'url must be an http:// or https:// URL'),
    );
    expect(await cli(dir, 'mcp', 'add', 'web', 'https://x/mcp', '-e', 'A=b')).toMatchObject(
      refused(ExitCode.Usage, '-e / --env variables are for stdio servers'),
    );
    expect(await cli(dir, 'mcp', 'add', 'mem', 'npx', '-e', 'novalue')).toMatchObject(
      refused(ExitCode.Usage, '"novalue" is not -e KEY=value'),
    );
    expect(await cli(dir, 'mcp', 'remove', 'nope')).toMatchObject(
      refused(ExitCode.Usage, 'has no server named "nope" (configured: files)'),
    );
    expect(await cli(dir, 'mcp', 'frob')).toMatchObject(refused(ExitCode.Usage, 'unknown action "frob"'));
    // Without --transport, a URL of another scheme is refused rather than taken for a command to run.
    expect(await cli(dir, 'mcp', 'add', 'x', 'ftp://foo')).toMatchObject(
      refused(ExitCode.Usage, '"ftp://foo" is a URL, but servers are reached over http:// or https:// only'),
    );
    expect(await cli(dir, 'mcp', 'add', 'web', 'https://x/mcp', '--annotation-trust', 'some')).toMatchObject(
      refused(ExitCode.Usage, '--annotation-trust must be one of ignore, read-only, read-only-federated, trust, not "some"'),
    );
    expect(await cli(dir, '--yes', 'mcp', 'list')).toMatchObject(refused(ExitCode.Usage, "Unknown option '--yes'"));
    expect(readFileSync(file, 'utf8')).toBe(ORIGINAL);
  });

  it('adds a toolmesh gateway with --annotation-trust read-only, and says so when an http server is added without it', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'agent-cli-mcp-'));
    const gateway = await cli(dir, 'mcp', 'add', 'gateway', '--annotation-trust', 'read-only', 'http://127.0.0.1:8080/mcp');
    expect(gateway).toMatchObject({ code: ExitCode.Ok, stderr: '' });
    const other = await cli(dir, 'mcp', 'add', 'docs', 'https://docs.example.com/mcp');
    expect(other).toMatchObject(refused(ExitCode.Ok, 'for a toolmesh gateway, add it with --annotation-trust read-only'));
    const config = parseConfig(readFileSync(path.join(dir, 'agent-cli.yaml'), 'utf8'), 'agent-cli.yaml', {});
    expect(config.servers.map((s) => [s.name, s.annotationTrust])).toEqual([
      ['gateway', 'read-only'],
      ['docs', 'ignore'],
    ]);
  });

  it('writes --era, --timeout, --header (Name: value or Name=value), --env and --roots as the keys the CLI then reads', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'agent-cli-mcp-'));
    mkdirSync(path.join(dir, 'data'));
    const web = ['docs', 'https://docs.example.com/mcp', '--era', 'legacy', '--timeout', '45s', '--header', 'X-Key=a:b=c'];
    expect(await cli(dir, 'mcp', 'add', ...web, '-H', 'Authorization: Bearer ${T}')).toMatchObject({ code: ExitCode.Ok });
    const local = ['fs', '--env', 'LOG=debug', '--timeout', '2m', '--era', '2026-07-28', '--roots', 'data', '--', 'npx', 'server'];
    expect(await cli(dir, 'mcp', 'add', ...local)).toMatchObject({ code: ExitCode.Ok });

    const file = path.join(dir, 'agent-cli.yaml');
    const config = parseConfig(readFileSync(file, 'utf8'), file, { T: 't' });
    expect(config.servers).toEqual([
      expect.objectContaining({
        name: 'docs',
        era: 'legacy',
        requestTimeoutMs: 45_000,
        headers: { 'X-Key': 'a:b=c', Authorization: 'Bearer t' },
      }),
      expect.objectContaining({
        name: 'fs',
        era: '2026-07-28',
        requestTimeoutMs: 120_000,
        env: { LOG: 'debug' },
        roots: [path.join(dir, 'data')],
      }),
    ]);
    const addRefused = async (args: string[], problem: string) =>
      expect(await cli(dir, 'mcp', 'add', 'x', ...args)).toMatchObject(refused(ExitCode.Usage, problem));
    await addRefused(['https://x/mcp', '--era', '2025'], '--era must be one of auto, legacy, 2026-07-28, not "2025"');
    await addRefused(['https://x/mcp', '--timeout', '300'], '--timeout takes a duration with its unit (30s, 2m, 1500ms), not "300"');
    await addRefused(['npx', '--header', 'X-Key=1'], '-H / --header headers are for http and sse servers');
    expect(await cli(dir, 'mcp', 'add', 'old', '--transport', 'sse', '--era', '2026-07-28', 'http://127.0.0.1:1/sse')).toMatchObject(
      refused(ExitCode.Config, '"legacy" or "auto" with transport sse'),
    );
  });

  it('turns a server off without deleting it, and on again: never started while off, the file back as it was', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'agent-cli-mcp-'));
    const file = path.join(dir, 'agent-cli.yaml');
    await cli(dir, 'mcp', 'add', 'everything', '--', EVERYTHING_BIN, 'stdio');
    await cli(dir, 'mcp', 'add', 'other', '--', EVERYTHING_BIN, 'stdio');
    const before = readFileSync(file, 'utf8');

    expect(await cli(dir, 'mcp', 'disable', 'other')).toMatchObject({
      code: ExitCode.Ok,
      stdout: `turned off the server "other" in ${file}: kept, never started; agent-cli mcp enable other turns it on\n`,
    });
    expect(readFileSync(file, 'utf8')).toContain('enabled: false');
    expect((await cli(dir, 'mcp', 'list')).stdout).toMatch(/\nother \(off\)\s+stdio/);
    const servers = await cli(dir, 'servers', '--json');
    expect(JSON.parse(servers.stdout)).toMatchObject({ servers: [{ name: 'everything', state: 'connected' }], off: ['other'] });
    expect(await cli(dir, 'call', 'mcp__other__echo', '{"message":"hi"}')).toMatchObject(
      refused(ExitCode.Usage, 'the server "other" is turned off (agent-cli mcp enable other turns it on)'),
    );

    expect(await cli(dir, 'mcp', 'enable', 'other')).toMatchObject({ code: ExitCode.Ok });
    expect(readFileSync(file, 'utf8')).toBe(before);
    expect(await cli(dir, 'mcp', 'enable', 'nope')).toMatchObject(refused(ExitCode.Usage, 'no server named "nope"'));

    // An mcpServers file is turned off in its own spelling, which Claude Desktop reads too.
    const json = path.join(dir, 'claude.json');
    writeFileSync(json, JSON.stringify({ mcpServers: { docs: { type: 'http', url: 'https://docs.example.com/mcp' } } }));
    await cli(dir, 'mcp', 'disable', 'docs', '--config', json);
    expect(JSON.parse(readFileSync(json, 'utf8')).mcpServers.docs).toEqual({
      type: 'http',
      url: 'https://docs.example.com/mcp',
      disabled: true,
    });
    expect(parseConfig(readFileSync(json, 'utf8'), json, {})).toMatchObject({ servers: [], disabledServers: ['docs'] });
  });

  it('suggests .gitignore entries when it creates the file inside a git work tree, and only then', async () => {
    const repo = mkdtempSync(path.join(tmpdir(), 'agent-cli-mcp-'));
    mkdirSync(path.join(repo, '.git'));
    mkdirSync(path.join(repo, 'sub'));
    const note = 'agent-cli.yaml may come to hold credentials and .agent-cli/ holds transcripts: add both to .gitignore';
    expect(await cli(path.join(repo, 'sub'), 'mcp', 'add', 'one', 'x')).toMatchObject({ code: ExitCode.Ok, stderr: `note: ${note}\n` });
    expect(await cli(path.join(repo, 'sub'), 'mcp', 'add', 'two', 'x')).toMatchObject({ code: ExitCode.Ok, stderr: '' });
    expect(await cli(mkdtempSync(path.join(tmpdir(), 'agent-cli-mcp-')), 'mcp', 'add', 'one', 'x')).toMatchObject({
      code: ExitCode.Ok,
      stderr: '',
    });
  });

  it('takes the options given before "mcp" as its own: agent-cli --config f.yaml mcp add ...', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'agent-cli-mcp-'));
    const added = await cli(dir, '--config', 'f.yaml', 'mcp', 'add', 'memory', '--', 'npx', '-y', '@modelcontextprotocol/server-memory');
    expect(added).toMatchObject({
      code: ExitCode.Ok,
      stdout: `added the stdio server "memory" (npx -y @modelcontextprotocol/server-memory) to ${path.join(dir, 'f.yaml')}\n${NO_ROOTS}\n`,
    });
    expect(JSON.parse((await cli(dir, '-c', 'f.yaml', '--json', 'mcp', 'list')).stdout)).toMatchObject({ servers: [{ name: 'memory' }] });
  });

  it('prints its help for mcp, mcp --help and help mcp', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'agent-cli-mcp-'));
    for (const args of [['mcp'], ['mcp', '--help'], ['help', 'mcp']])
      expect(await cli(dir, ...args)).toMatchObject({ code: ExitCode.Ok, stdout: COMMAND_HELP.mcp });
  });
});
