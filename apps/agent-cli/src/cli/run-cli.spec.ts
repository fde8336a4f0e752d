import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { runCliInProcess } from '../test-support/in-process-cli';
import { COMMAND_HELP } from './help';
import { ExitCode, HELP } from './run-cli';

const cwd = mkdtempSync(path.join(tmpdir(), 'agent-cli-run-'));

const run = (...args: string[]) => runCliInProcess(args, { cwd, env: {}, version: '1.2.3' });

describe('runCli', () => {
  it.each([[[]], [['--help']], [['-h']], [['help']]])('prints help for %j', async (args) => {
    expect(await run(...args)).toEqual({ code: ExitCode.Ok, stdout: HELP, stderr: '' });
  });

  it.each(['servers', 'tools', 'call', 'run', 'chat', 'watch', 'resources', 'prompts', 'skills', 'mcp', 'serve'])(
    'prints the help of "%s" for "%s --help" and "help %s", with the exit codes',
    async (command) => {
      expect(await run(command, '--help')).toEqual({ code: ExitCode.Ok, stdout: COMMAND_HELP[command], stderr: '' });
      expect((await run('help', command)).stdout).toBe(COMMAND_HELP[command]);
      expect(COMMAND_HELP[command]).toContain('Exit codes:');
    },
  );

  it.each([
    ['tools', { json: true, approval: false }],
    ['servers', { json: true, approval: false }],
    ['resources', { json: true, approval: false }],
    ['skills', { json: true, approval: false }],
    ['run', { json: true, approval: true }],
    ['chat', { json: false, approval: true }],
    ['serve', { json: false, approval: true }],
  ])('lists in the help of "%s" only the global options that do something there', (command, has) => {
    const help = COMMAND_HELP[command];
    expect(help).toContain('--config <file>');
    expect(help).not.toContain('-V, --version');
    expect(help.includes('      --json ')).toBe(has.json);
    expect([help.includes('-y, --yes'), help.includes('      --max-side-effect <read-only')]).toEqual([has.approval, has.approval]);
  });

  it('prints the version', async () => {
    expect(await run('--version')).toEqual({ code: ExitCode.Ok, stdout: '1.2.3\n', stderr: '' });
  });

  it('refuses an unknown option with exit code 2 and a hint', async () => {
    const result = await run('--frobnicate');
    expect(result.code).toBe(ExitCode.Usage);
    expect(result.stderr).toContain("Unknown option '--frobnicate'");
    expect(result.stderr).toContain('agent-cli --help');
  });

  it('refuses the watch options on other commands (exit 2)', async () => {
    expect(await run('servers', '--count', '1')).toMatchObject({
      code: ExitCode.Usage,
      stderr: expect.stringContaining('--timeout and --count are options of "watch" only'),
    });
  });

  it('refuses an unknown command with exit code 2', async () => {
    expect(await run('launch')).toMatchObject({ code: ExitCode.Usage, stderr: expect.stringContaining('unknown command "launch"') });
  });

  it('runs with no servers when there is no ./agent-cli.yaml and no --config: the built-in tools work', async () => {
    const result = await run('call', 'Glob', '{"pattern":"*.none"}', '--json');
    expect(result.code).toBe(ExitCode.Ok);
    expect(JSON.parse(result.stdout)).toMatchObject({ isError: false });
  });

  it('says how to fix a missing file named by --config (exit 3)', async () => {
    const result = await run('servers', '--config', 'missing.yaml');
    expect(result.code).toBe(ExitCode.Config);
    expect(result.stderr).toContain(path.join(cwd, 'missing.yaml'));
    expect(result.stderr).toContain('--config');
    expect(result.stderr).toContain('[config.not_found]');
  });

  it('uses an mcpServers file with an unusable entry, warning how to fix it (SPEC A20)', async () => {
    writeFileSync(path.join(cwd, 'hosts.json'), JSON.stringify({ mcpServers: { my_server: { command: 'x' } } }));
    const result = await run('tools', '--json', '--config', 'hosts.json');
    expect(result.code).toBe(ExitCode.Ok);
    expect(result.stderr).toMatch(/^warning: .*hosts\.json: the server "my_server" was left out: .*"my-server"/m);
    expect(JSON.parse(result.stdout).tools.map((t: { name: string }) => t.name)).toContain('Read');
  });

  it('reports an invalid configuration with the setting and exit code 3', async () => {
    writeFileSync(path.join(cwd, 'bad.yaml'), 'mcp:\n  servers:\n    - name: a\n      comand: x\n');
    const result = await run('tools', '--config', 'bad.yaml');
    expect(result).toMatchObject({ code: ExitCode.Config, stdout: '' });
    expect(result.stderr).toContain('mcp.servers[0].comand is not a known setting');
  });

  it('refuses call arguments that are not a JSON object before starting any server (exit 2)', async () => {
    writeFileSync(path.join(cwd, 'agent-cli.yaml'), 'mcp:\n  servers: []\n');
    expect(await run('call', 'mcp__x__y', '[1]')).toMatchObject({
      code: ExitCode.Usage,
      stderr: expect.stringMatching(/must be a JSON object.*\[tool\.invalid_arguments\]/),
    });
    expect(await run('call', 'mcp__x__y', '{bad')).toMatchObject({
      code: ExitCode.Usage,
      stderr: expect.stringContaining('not valid JSON'),
    });
    expect(await run('call')).toMatchObject({ code: ExitCode.Usage });
  });

  it('reports an unknown tool with a hint to list the tools (exit 2)', async () => {
    writeFileSync(path.join(cwd, 'agent-cli.yaml'), 'mcp:\n  servers: []\n');
    expect(await run('call', 'mcp__x__y')).toMatchObject({
      code: ExitCode.Usage,
      stderr: expect.stringMatching(/run "agent-cli tools" to list the tools \[tool\.not_found\]/),
    });
  });

  it('refuses run without a task, chat with arguments and a --max-turns that is not a positive number (exit 2)', async () => {
    writeFileSync(path.join(cwd, 'agent-cli.yaml'), 'llm:\n  model: m\nmcp:\n  servers: []\n');
    expect(await run('run')).toMatchObject({ code: ExitCode.Usage, stderr: expect.stringContaining('expected the task') });
    expect(await run('chat', 'hello')).toMatchObject({ code: ExitCode.Usage, stderr: expect.stringContaining('takes no arguments') });
    expect(await run('run', 'x', '--max-turns', '0')).toMatchObject({
      code: ExitCode.Usage,
      stderr: expect.stringContaining('--max-turns must be a positive whole number, not "0"'),
    });
  });

  it('asks for a model for run and chat (exit 3, llm.model_not_configured)', async () => {
    writeFileSync(path.join(cwd, 'agent-cli.yaml'), 'mcp:\n  servers: []\n');
    for (const args of [['run', 'x'], ['chat']]) {
      expect(await run(...args)).toMatchObject({
        code: ExitCode.Config,
        stderr: expect.stringMatching(/set llm\.model in .*agent-cli\.yaml or pass --model <name>.*\[llm\.model_not_configured\]/),
      });
    }
  });
});
