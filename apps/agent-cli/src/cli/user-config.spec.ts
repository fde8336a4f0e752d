import { mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { EVERYTHING_BIN } from '@toolmesh/test-peers/mcp-servers';

import { runBuiltCli } from '../test-support/built-cli';
import { refused, runCliInProcess } from '../test-support/in-process-cli';
import { ExitCode } from './exit-codes';
import { loadLayeredConfig, userConfigFile } from './user-config';

/**
 * The user's configuration beside the project's (`claude mcp add --scope user`, Codex's and goose's files
 * in the home folder): `mcp add --scope user` writes it, and every command reads the project's over it.
 */
const base = mkdtempSync(path.join(tmpdir(), 'agent-cli-user-config-'));
const env = { PATH: process.env.PATH, XDG_CONFIG_HOME: path.join(base, 'config') };
const USER_FILE = path.join(base, 'config', 'toolmesh-agent', 'agent-cli.yaml');
const folder = (name: string) => {
  const dir = path.join(base, name);
  mkdirSync(dir, { recursive: true });
  return dir;
};

const cli = (cwd: string, ...args: string[]) => runCliInProcess(args, { cwd, env });

const serverEntry = (name: string, extra = '') =>
  `    - name: ${name}\n      command: ${JSON.stringify(EVERYTHING_BIN)}\n      args: [stdio]\n${extra}`;
const servers = async (cwd: string) => JSON.parse((await cli(cwd, 'servers', '--json')).stdout);

describe('the user configuration', () => {
  it('is written by mcp add --scope user, in a folder only its owner may enter, and read in every folder', async () => {
    expect(userConfigFile(env)).toBe(USER_FILE);
    const added = await cli(folder('anywhere'), 'mcp', 'add', '--scope', 'user', 'everything', '--', EVERYTHING_BIN, 'stdio');
    expect(added).toMatchObject({ code: ExitCode.Ok, stdout: expect.stringContaining(`to ${USER_FILE}\n`) });
    expect(statSync(path.dirname(USER_FILE)).mode & 0o777).toBe(0o700);
    expect((await cli(folder('anywhere'), 'mcp', 'list', '--scope', 'user')).stdout).toMatch(/\neverything\s+stdio/);

    // A folder with no project file: the user's servers alone.
    expect(await servers(folder('empty'))).toMatchObject({ servers: [{ name: 'everything', state: 'connected' }] });

    // A project's file adds its servers, and one of the same name (here turned off) replaces the user's.
    const project = folder('project');
    writeFileSync(path.join(project, 'agent-cli.yaml'), `mcp:\n  servers:\n${serverEntry('other')}`);
    expect((await servers(project)).servers.map((s: { name: string }) => s.name)).toEqual(['everything', 'other']);
    writeFileSync(
      path.join(project, 'agent-cli.yaml'),
      `mcp:\n  servers:\n${serverEntry('other')}${serverEntry('everything', '      enabled: false\n')}`,
    );
    expect(await servers(project)).toMatchObject({ servers: [{ name: 'other' }], off: ['everything'] });
  });

  it("gives each other section where the project's file sets none", () => {
    writeFileSync(USER_FILE, `llm:\n  model: the-users-model\nworkspaceRoots: [notes]\n`);
    const project = folder('sections');
    const file = path.join(project, 'agent-cli.yaml');
    writeFileSync(file, `workspaceRoots: [docs]\n`);
    const config = loadLayeredConfig(file, false, env);
    expect(config.llm?.model).toBe('the-users-model');
    expect(config.workspaceRoots).toEqual([path.join(project, 'docs')]);
    writeFileSync(file, `llm:\n  model: the-projects-model\n`);
    expect(loadLayeredConfig(file, false, env)).toMatchObject({
      llm: { model: 'the-projects-model' },
      workspaceRoots: [path.join(base, 'config', 'toolmesh-agent', 'notes')],
    });
  });

  it('mcp --scope takes project or user, and user never with --config', async () => {
    expect(await cli(base, 'mcp', 'list', '--scope', 'global')).toMatchObject(
      refused(ExitCode.Usage, '--scope must be project or user, not "global"'),
    );
    expect(await cli(base, 'mcp', 'list', '--scope', 'user', '--config', 'x.yaml')).toMatchObject(
      refused(ExitCode.Usage, '--scope user edits the user configuration, --config a project file: give one of them'),
    );
    expect(readFileSync(USER_FILE, 'utf8')).toContain('the-users-model');
  });
});

describe("a test's run of the CLI (test-support/cli-env.ts)", () => {
  it('never reads the user configuration in the home it is given, in process or as a child', async () => {
    const home = folder('home');
    mkdirSync(path.join(home, '.config', 'toolmesh-agent'), { recursive: true });
    writeFileSync(path.join(home, '.config', 'toolmesh-agent', 'agent-cli.yaml'), `mcp:\n  servers:\n${serverEntry('from-home')}`);
    const args = ['mcp', 'list', '--scope', 'user', '--json'];
    const homeOnly = { PATH: process.env.PATH, HOME: home };
    for (const run of [await runCliInProcess(args, { cwd: home, env: homeOnly }), await runBuiltCli(args, { cwd: home, env: homeOnly })])
      expect(JSON.parse(run.stdout)).toEqual({ file: expect.not.stringContaining(home), servers: [] });
  });
});
