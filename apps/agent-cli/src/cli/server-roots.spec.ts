import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';

import { ExitCode } from './exit-codes';
import { runCli } from './run-cli';

/**
 * Roots the user chooses, with the real server-filesystem, which replaces the folders it was started with
 * by the client's roots whenever the client declares roots. Configured for one folder and given no roots
 * it keeps serving that folder; given roots it serves exactly those; the working directory is offered
 * only where the agent's own configuration says nothing.
 */
const FILESYSTEM_BIN = path.join(__dirname, '../../../../node_modules/.bin/mcp-server-filesystem');
const base = realpathSync(mkdtempSync(path.join(tmpdir(), 'agent-cli-roots-')));
const configured = path.join(base, 'configured');
const chosen = path.join(base, 'chosen');
const workingDirectory = path.join(base, 'work');
for (const dir of [configured, chosen, workingDirectory]) mkdirSync(dir);

/** The folders server-filesystem serves, as its list_allowed_directories tool answers, for a configuration file's text. */
async function allowedDirectories(file: string, text: string): Promise<string[]> {
  writeFileSync(path.join(base, file), text);
  let stdout = '';
  let stderr = '';
  const io = { stdout: (t: string) => (stdout += t), stderr: (t: string) => (stderr += t) };
  const code = await runCli(['call', 'mcp__files__list_allowed_directories', '--config', path.join(base, file)], io, {
    version: '0.0.0-test',
    cwd: workingDirectory,
    env: { PATH: process.env.PATH },
  });
  expect({ code, stderr }).toEqual({ code: ExitCode.Ok, stderr: expect.any(String) });
  return stdout.split('\n').filter((line) => line.startsWith('/'));
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
    expect(await allowedDirectories('imported-roots.json', importedEntry({ roots: ['chosen'] }))).toEqual([chosen]);
  });

  it('roots: [] in the agent format offers none, so the configured folder stays', async () => {
    expect(await allowedDirectories('none.yaml', yamlEntry('      roots: []\n'))).toEqual([configured]);
  });

  it('roots in the agent format are the only ones sent: not the working directory, not the configured folder', async () => {
    expect(await allowedDirectories('chosen.yaml', yamlEntry(`      roots: [chosen, ${JSON.stringify(configured)}]\n`))).toEqual([
      chosen,
      configured,
    ]);
    expect(await allowedDirectories('one.yaml', yamlEntry('      roots: [./chosen]\n'))).toEqual([chosen]);
  });

  it('without roots the agent format offers the working directory, the documented default', async () => {
    expect(await allowedDirectories('default.yaml', yamlEntry(''))).toEqual([workingDirectory]);
  });

  it("chat's /roots gives a server the directories the user names, tells it, and refuses what is not a directory", async () => {
    writeFileSync(path.join(base, 'chat.yaml'), yamlEntry('      roots: [chosen]\n'));
    let stderr = '';
    const lines = [`/roots files`, `/roots files ../configured`, `/roots files`, `/roots files nowhere`, `/roots nope ${base}`, '/exit'];
    const io = {
      stdout: () => undefined,
      stderr: (t: string) => void (stderr += t),
      stdin: Readable.from(lines.map((line) => `${line}\n`)),
    };
    const code = await runCli(['chat', '--model', 'never-asked', '--config', path.join(base, 'chat.yaml')], io, {
      version: '0.0.0-test',
      cwd: workingDirectory,
      env: { PATH: process.env.PATH },
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
