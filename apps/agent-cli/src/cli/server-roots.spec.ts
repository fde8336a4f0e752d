import { mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';

import { runCliInProcess } from '../test-support/in-process-cli';
import { ExitCode } from './exit-codes';

/**
 * Roots the user chooses, with the real server-filesystem, which replaces the folders it was started with
 * by the client's roots whenever the client declares roots. Configured for one folder and given no roots
 * it keeps serving that folder; given roots it serves exactly those. Nothing is offered unless asked for.
 */
const FILESYSTEM_BIN = path.join(__dirname, '../../../../node_modules/.bin/mcp-server-filesystem');
const base = realpathSync(mkdtempSync(path.join(tmpdir(), 'agent-cli-roots-')));
const configured = path.join(base, 'configured');
const chosen = path.join(base, 'chosen');
const workingDirectory = path.join(base, 'work');
for (const dir of [configured, chosen, workingDirectory]) mkdirSync(dir);

/** Runs the CLI in-process in `cwd`, as a user at a terminal-less shell there would. */
const cli = (cwd: string, args: readonly string[]) => runCliInProcess(args, { cwd });

/** The folders server-filesystem serves, as its list_allowed_directories tool answers, for a configuration file's text. */
async function allowedDirectories(file: string, text: string): Promise<string[]> {
  writeFileSync(path.join(base, file), text);
  const { code, stdout } = await cli(workingDirectory, ['call', 'mcp__files__list_allowed_directories', '--config', path.join(base, file)]);
  expect(code).toBe(ExitCode.Ok);
  return stdout.split('\n').filter((line) => line.startsWith('/'));
}

/**
 * `allowedDirectories` for an entry that declares roots: server-filesystem asks for them only once it is
 * initialized and answers a call that comes first from its own folders, so a run that raced it is retried.
 */
async function allowedDirectoriesOnceRooted(file: string, text: string, expected: readonly string[]): Promise<string[]> {
  return onceRooted(
    () => allowedDirectories(file, text),
    (served) => served.join('\n') === expected.join('\n'),
  );
}

/** `run` again, up to five runs in all, until `rooted` says the server had its roots when it answered. */
async function onceRooted<T>(run: () => Promise<T>, rooted: (result: T) => boolean): Promise<T> {
  let result = await run();
  for (let attempt = 1; attempt < 5 && !rooted(result); attempt++) result = await run();
  return result;
}

const yamlEntry = (roots: string) =>
  `mcp:\n  servers:\n    - name: files\n      command: ${JSON.stringify(FILESYSTEM_BIN)}\n      args: [${JSON.stringify(configured)}]\n${roots}`;
const importedEntry = (extra: object) =>
  JSON.stringify({ mcpServers: { files: { command: FILESYSTEM_BIN, args: [configured], ...extra } } });

describe('roots the user chooses', () => {
  it('an imported mcpServers entry with no roots keeps the folder its arguments give', async () => {
    expect(await allowedDirectories('imported.json', importedEntry({}))).toEqual([configured]);
  });

  it('an imported entry with roots (relative to the file) serves those', async () => {
    expect(await allowedDirectoriesOnceRooted('imported-roots.json', importedEntry({ roots: ['chosen'] }), [chosen])).toEqual([chosen]);
  });

  it('roots: [] in the agent format offers none, so the configured folder stays', async () => {
    expect(await allowedDirectories('none.yaml', yamlEntry('      roots: []\n'))).toEqual([configured]);
  });

  it('roots in the agent format are the only ones sent: not the working directory, not the configured folder', async () => {
    const both = yamlEntry(`      roots: [chosen, ${JSON.stringify(configured)}]\n`);
    expect(await allowedDirectoriesOnceRooted('chosen.yaml', both, [chosen, configured])).toEqual([chosen, configured]);
    expect(await allowedDirectoriesOnceRooted('one.yaml', yamlEntry('      roots: [./chosen]\n'), [chosen])).toEqual([chosen]);
  });

  it('without roots the agent format offers none either: the configured folder stays, not the working directory', async () => {
    expect(await allowedDirectories('default.yaml', yamlEntry(''))).toEqual([configured]);
  });

  it('mcp add for a folder, then a call from another folder reads it; with --roots it serves those instead', async () => {
    const project = path.join(base, 'project');
    mkdirSync(project);
    writeFileSync(path.join(configured, 'x'), 'in the configured folder');
    writeFileSync(path.join(chosen, 'y'), 'in the chosen folder');
    const read = (config: string, file: string) =>
      cli(workingDirectory, ['call', 'mcp__fs__read_text_file', JSON.stringify({ path: file }), '--config', path.join(project, config)]);

    const added = await cli(project, ['mcp', 'add', 'fs', '--', FILESYSTEM_BIN, configured]);
    expect(added).toMatchObject({
      code: ExitCode.Ok,
      stdout: expect.stringContaining('\nroots: none (it keeps the folders its own arguments give'),
    });
    expect(await read('agent-cli.yaml', path.join(configured, 'x'))).toMatchObject({
      code: ExitCode.Ok,
      stdout: expect.stringContaining('in the configured folder'),
    });

    // `--roots ../chosen` is relative to where mcp add runs; outside the file's folder it is written absolute.
    const rooted = await cli(project, [
      'mcp',
      'add',
      'fs',
      '--config',
      'rooted.yaml',
      '--roots',
      '../chosen',
      '--',
      FILESYSTEM_BIN,
      configured,
    ]);
    expect(rooted.stdout).toContain(`\nroots: ${chosen} (offered to it as its MCP roots;`);
    expect(readFileSync(path.join(project, 'rooted.yaml'), 'utf8')).toContain(`roots:\n        - ${chosen}\n`);
    const allowed = await onceRooted(
      () => read('rooted.yaml', path.join(chosen, 'y')),
      (run) => run.code === ExitCode.Ok,
    );
    expect(allowed).toMatchObject({ code: ExitCode.Ok, stdout: expect.stringContaining('in the chosen folder') });
    const refused = await onceRooted(
      () => read('rooted.yaml', path.join(configured, 'x')),
      (run) => run.code !== ExitCode.Ok,
    );
    expect(refused.code).not.toBe(ExitCode.Ok);
    expect(refused.stdout + refused.stderr).toContain('Access denied');
  });

  it('mcp add --roots refuses what is not a directory; --roots . is the folder it runs in, written relative to the file', async () => {
    expect(await cli(chosen, ['mcp', 'add', 'fs', '--roots', 'y', '--', FILESYSTEM_BIN])).toMatchObject({
      code: ExitCode.Usage,
      stderr: expect.stringContaining('--roots y is not a directory'),
    });
    const here = await cli(chosen, ['mcp', 'add', 'fs', '--roots', '.', '--json', '--', FILESYSTEM_BIN]);
    expect(JSON.parse(here.stdout)).toMatchObject({ added: 'fs', roots: [chosen] });
    expect(readFileSync(path.join(chosen, 'agent-cli.yaml'), 'utf8')).toContain('roots:\n        - .\n');
  });

  it("chat's /roots gives a server the directories the user names, tells it, and refuses what is not a directory", async () => {
    writeFileSync(path.join(base, 'chat.yaml'), yamlEntry('      roots: [chosen]\n'));
    const lines = [`/roots files`, `/roots files ../configured`, `/roots files`, `/roots files nowhere`, `/roots nope ${base}`, '/exit'];
    const { code, stderr } = await runCliInProcess(['chat', '--model', 'never-asked', '--config', path.join(base, 'chat.yaml')], {
      cwd: workingDirectory,
      stdin: Readable.from(lines.map((line) => `${line}\n`)),
    });

    expect(code).toBe(ExitCode.Ok);
    const shown = stderr.split('\n').filter((line) => /^(roots of|no MCP server|\/.* is not a directory)/.test(line));
    expect(shown).toEqual([
      `roots of files: ${chosen}`,
      `roots of files: ${configured} (the server was told)`,
      `roots of files: ${configured}`,
      `${path.join(workingDirectory, 'nowhere')} is not a directory; the roots of files are unchanged`,
      'no MCP server named "nope"; the configured ones: files',
    ]);
  });
});
