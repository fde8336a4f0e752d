import path from 'node:path';

import { ExitCode } from '../cli/exit-codes';
import { runCliInProcess } from '../test-support/in-process-cli';

/**
 * config/examples/agent-servers.yaml run as its header says (the packages npx finds in this repository):
 * the filesystem server's read-only tools alone, the server turned off never started.
 */
const REPO = path.join(__dirname, '../../../..');
const EXAMPLE = path.join(REPO, 'config/examples/agent-servers.yaml');

it("config/examples/agent-servers.yaml offers the files server's allowed tools, and memory is off", async () => {
  const { code, stdout } = await runCliInProcess(['tools', '--json', '--config', EXAMPLE], {
    cwd: REPO,
    env: { PATH: process.env.PATH, HOME: process.env.HOME },
  });
  expect(code).toBe(ExitCode.Ok);
  const names = (JSON.parse(stdout).tools as Array<{ name: string }>).map((t) => t.name).filter((n) => n.startsWith('mcp__'));
  expect(names).toEqual(expect.arrayContaining(['mcp__files__read_text_file', 'mcp__files__list_directory', 'mcp__files__search_files']));
  for (const left of ['write_file', 'edit_file', 'move_file', 'create_directory', 'read_media_file'])
    expect(names).not.toContain(`mcp__files__${left}`);
  expect(names.filter((n) => !n.startsWith('mcp__files__'))).toEqual([]);
});

it('config/examples/agent-tasks.yaml offers the task tool and lists the tasks its server holds', async () => {
  const example = path.join(REPO, 'config/examples/agent-tasks.yaml');
  const env = { PATH: process.env.PATH, HOME: process.env.HOME };
  const tools = await runCliInProcess(['tools', '--json', '--config', example], { cwd: REPO, env });
  expect(tools.code).toBe(ExitCode.Ok);
  expect((JSON.parse(tools.stdout).tools as Array<{ name: string }>).map((t) => t.name)).toContain(
    'mcp__everything__simulate-research-query',
  );
  const tasks = await runCliInProcess(['tasks', '--json', '--config', example], { cwd: REPO, env });
  expect(tasks).toMatchObject({ code: ExitCode.Ok });
  expect(JSON.parse(tasks.stdout)).toEqual({ tasks: [], unlisted: [] });
});
