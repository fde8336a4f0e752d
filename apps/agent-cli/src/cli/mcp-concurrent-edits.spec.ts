import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { parse } from 'yaml';

import { runBuiltCli } from '../test-support/built-cli';
import { ExitCode } from './exit-codes';

/**
 * `mcp add` and `mcp remove` run at the same time on one configuration file, as separate processes of the
 * built CLI: each edit is made under the file's lock and reads what the others wrote, so none is lost.
 */
const cli = (dir: string, ...args: string[]) => runBuiltCli(['mcp', ...args], { cwd: dir, env: { PATH: process.env.PATH } });

function configured(dir: string): string[] {
  const config = parse(readFileSync(path.join(dir, 'agent-cli.yaml'), 'utf8')) as { mcp: { servers: Array<{ name: string }> } };
  return config.mcp.servers.map((s) => s.name).sort();
}

const NAMES = Array.from({ length: 10 }, (_, i) => `server-${i}`);

it('10 parallel mcp add processes leave 10 servers, and 5 parallel removes leave the other 5', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'agent-cli-mcp-lock-'));
  const adds = await Promise.all(NAMES.map((name) => cli(dir, 'add', name, 'node', `${name}.js`)));
  expect(adds.map((run) => run.code)).toEqual(NAMES.map(() => ExitCode.Ok));
  expect(configured(dir)).toEqual([...NAMES].sort());

  const removes = await Promise.all(NAMES.slice(0, 5).map((name) => cli(dir, 'remove', name)));
  expect(removes.map((run) => run.code)).toEqual(NAMES.slice(0, 5).map(() => ExitCode.Ok));
  expect(configured(dir)).toEqual(NAMES.slice(5).sort());
  expect(existsSync(path.join(dir, 'agent-cli.yaml.lock'))).toBe(false);
}, 120_000);

it('a lock left by a process that is gone is taken over; one held by a live process is waited for, then refused', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'agent-cli-mcp-lock-'));
  const lock = path.join(dir, 'agent-cli.yaml.lock');
  const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout;
  writeFileSync(lock, gone);
  expect((await cli(dir, 'add', 'after-crash', 'node', 'x.js')).code).toBe(ExitCode.Ok);
  expect(configured(dir)).toEqual(['after-crash']);

  writeFileSync(lock, String(process.pid)); // this test's own process: alive
  const refused = await cli(dir, 'add', 'while-held', 'node', 'x.js');
  expect(refused.code).toBe(ExitCode.Failure);
  expect(refused.stderr).toContain(`is held by process ${process.pid}`);
  expect(refused.stderr).toContain('[config.locked]');
  expect(configured(dir)).toEqual(['after-crash']);
  expect(readFileSync(lock, 'utf8')).toBe(String(process.pid)); // never broken while its holder lives
});
