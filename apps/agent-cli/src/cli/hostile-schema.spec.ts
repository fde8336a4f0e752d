import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { REPO_ROOT } from '@toolmesh/test-peers/server-process';

import { type CliRun, runBuiltCli } from '../test-support/built-cli';

/**
 * SPEC N5 through the built CLI against a stdio server that advertises hostile schemas: a pattern that
 * backtracks catastrophically on V8 (the CLI froze for about 60 s) is checked in linear time, and a tool
 * whose pattern the linear-time engine cannot run is skipped with a warning while the rest register.
 */
const PEER = path.join(REPO_ROOT, 'tools/test/peers/stdio-peer.mjs');
const HOSTILE_INPUT = `${'a'.repeat(30)}!`;
const tools = [
  { name: 'echo', inputSchema: { type: 'object', properties: { text: { type: 'string', pattern: '^(a+)+$' } }, required: ['text'] } },
  { name: 'backref_tool', inputSchema: { type: 'object', properties: { text: { type: 'string', pattern: '^(a)\\1$' } } } },
];
const dir = mkdtempSync(path.join(tmpdir(), 'agent-cli-hostile-'));
writeFileSync(
  path.join(dir, 'agent-cli.yaml'),
  `mcp:\n  servers:\n    - name: peer\n      command: ${JSON.stringify(process.execPath)}\n      args: ${JSON.stringify([PEER, `--tools=${JSON.stringify(tools)}`])}\n      annotationTrust: trust\n`,
);

function cli(...args: string[]): Promise<CliRun> {
  return runBuiltCli(args, { cwd: dir, env: { PATH: process.env.PATH ?? '' } });
}

describe('agent-cli against a server with hostile schemas', () => {
  it('refuses a catastrophic-backtracking argument at once, naming the field, and never calls the server', async () => {
    const { code, stdout, stderr } = await cli('call', 'mcp__peer__echo', JSON.stringify({ text: HOSTILE_INPUT }), '--yes');
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toContain('invalid arguments for mcp__peer__echo: arguments.text must match pattern "^(a+)+$"');
  }, 30_000); // the bound that fails a backtracking engine: V8 took about 60 s on this input

  it('still calls the tool with an argument its pattern accepts', async () => {
    const { code, stdout } = await cli('call', 'mcp__peer__echo', JSON.stringify({ text: 'a'.repeat(2_000) }), '--yes');
    expect(code).toBe(0);
    expect(stdout).toContain('a'.repeat(2_000));
  });

  it('skips the tool whose pattern the engine cannot run, with a warning saying why, and registers the rest', async () => {
    const { code, stdout, stderr } = await cli('tools', '--json');
    expect(code).toBe(0);
    const names = (JSON.parse(stdout).tools as Array<{ name: string }>).map((tool) => tool.name);
    expect(names).toContain('mcp__peer__echo');
    expect(names).not.toContain('mcp__peer__backref_tool');
    expect(stderr).toContain(
      'MCP server "peer": tool "backref_tool" skipped, its inputSchema cannot be used (schema.unsupported_pattern): pattern "^(a)\\1$" cannot run in linear time',
    );
  });
});
