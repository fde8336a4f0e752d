import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { runBuiltCli } from '../test-support/built-cli';
import { syntheticServers } from '../test-support/synthetic-servers';
import { ExitCode } from './exit-codes';

/**
 * `agent-cli tools --json` says which tools are deferred (docs/agent-cli.md, "Deferred tools"): the built
 * CLI over 1,000 MCP tools on 10 stdio servers, one of them marked `alwaysLoad`.
 */
it('tools --json marks the deferred tools: the MCP tools over the budget, never the built-ins or an alwaysLoad server', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'agent-cli-deferred-'));
  const servers = syntheticServers(10, 100).map((server) => ({ ...server, ...(server.name === 'catalogue-9' && { alwaysLoad: true }) }));
  writeFileSync(path.join(dir, 'agent-cli.json'), JSON.stringify({ mcp: { servers } }));
  const run = await runBuiltCli(['tools', '--json', '--config', 'agent-cli.json'], {
    cwd: dir,
    env: { PATH: process.env.PATH, HOME: dir, XDG_CONFIG_HOME: path.join(dir, 'config') },
  });
  expect({ code: run.code, stderr: run.stderr }).toEqual({ code: ExitCode.Ok, stderr: expect.not.stringContaining('failed') });
  const tools = JSON.parse(run.stdout).tools as Array<{ name: string; deferred: boolean }>;
  const deferredOf = (prefix: string) => [...new Set(tools.filter((t) => t.name.startsWith(prefix)).map((t) => t.deferred))];
  expect(tools).toHaveLength(1_000 + 8);
  expect(tools.filter((t) => t.deferred)).toHaveLength(900);
  expect(deferredOf('mcp__catalogue-0__')).toEqual([true]);
  expect(deferredOf('mcp__catalogue-9__')).toEqual([false]);
  expect(tools.filter((t) => !t.name.startsWith('mcp__')).map((t) => [t.name, t.deferred])).toEqual(
    expect.arrayContaining([
      ['Read', false],
      ['ToolSearch', false],
    ]),
  );
}, 120_000);
