import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { EVERYTHING_SCRIPT } from '@toolmesh/test-peers/mcp-servers';
import { eventually } from '@toolmesh/test-peers/process-table';

import { runBuiltCli } from '../test-support/built-cli';
import { connectedServers } from '../test-support/connected-servers';
import { resultText } from '../tools/tool';
import type { StdioServerConfig } from './server-config';

const ROOT = path.join(__dirname, '../../../..');
const PEER = path.join(ROOT, 'tools/test/peers/stdio-peer.mjs');

function peer(name: string, flags: string[] = [], extra: Partial<StdioServerConfig> = {}): StdioServerConfig {
  return {
    name,
    transport: 'stdio',
    command: process.execPath,
    args: [PEER, `--name=${name}`, ...flags],
    env: {},
    requestTimeoutMs: 10_000,
    annotationTrust: 'ignore',
    ...extra,
  };
}

const servers = connectedServers('lifecycle-test');
const { warnings, progress, connect } = servers;

describe('server lifecycle (SPEC A20)', () => {
  it('gives up a server at its own startupTimeoutMs, however long its requestTimeoutMs', async () => {
    const { statuses } = await connect([peer('hung', ['--hang-initialize'], { requestTimeoutMs: 30_000, startupTimeoutMs: 300 })]);
    expect(statuses[0]).toMatchObject({ state: 'failed', error: expect.stringMatching(/within (its startupTimeoutMs of )?300 ms/) });
  });

  it('reports the exit code and stderr of servers that exit at start, not the write they broke', async () => {
    const quitter = (i: number): StdioServerConfig => ({
      ...peer(`quits-${i}`),
      command: '/bin/sh',
      args: ['-c', 'echo "API_KEY is not set" >&2; exit 3'],
    });
    const { statuses } = await connect([0, 1, 2, 3, 4].map(quitter));
    for (const status of statuses) {
      expect(status.state).toBe('failed');
      expect(status.error).toMatch(/exited with code 3.*API_KEY is not set/);
      expect(status.error).not.toContain('EPIPE');
    }
  });

  it('keeps one tool of a name a server lists twice, and that tool works', async () => {
    const echo = { name: 'echo', inputSchema: { type: 'object' } };
    const { registry } = await connect([peer('twice', [`--tools=${JSON.stringify([echo, echo])}`])]);
    expect(registry.list().map((t) => t.name)).toEqual(['mcp__twice__echo']);
    expect(await registry.get('mcp__twice__echo')?.execute({ text: 'one' })).toMatchObject({ isError: false });
    expect(warnings).toEqual([expect.stringContaining('tool "echo" is listed twice; the first is used')]);
  });

  it('sends notifications/cancelled for a running call before closing the connection', async () => {
    const record = path.join(mkdtempSync(path.join(tmpdir(), 'cancel-')), 'methods.txt');
    const { registry } = await connect([peer('slowpoke', [`--record=${record}`])]);
    const running = registry.get('mcp__slowpoke__slow')?.execute({ ms: 20_000 });
    expect(await eventually(() => readFileSync(record, 'utf8').includes('tools/call'))).toBe(true);

    await servers.manager?.close();

    expect(resultText((await running) ?? { isError: true, content: [] })).toMatch(/failed/);
    expect(readFileSync(record, 'utf8').trim().split('\n').slice(-2)).toEqual(['tools/call', 'notifications/cancelled']);
    expect(warnings.filter((w) => /write after end|cancellation/i.test(w))).toEqual([]);
  });

  it('shows progress, sends a progress token, and lets each progress notification restart the call timeout', async () => {
    const everything: StdioServerConfig = {
      name: 'everything',
      transport: 'stdio',
      command: process.execPath,
      args: [EVERYTHING_SCRIPT, 'stdio'],
      env: {},
      requestTimeoutMs: 1500,
      annotationTrust: 'ignore',
    };
    const { registry } = await connect([everything]);
    // 3 s in all, a progress notification each second: longer than the 1.5 s timeout, never 1.5 s without news.
    const result = await registry.get('mcp__everything__trigger-long-running-operation')?.execute({ duration: 3, steps: 3 });
    expect(result).toMatchObject({ isError: false });
    // The last one travels with the result: it is shown as the last step, never as a warning about an unknown token.
    expect(progress).toEqual([1, 2, 3].map((step) => `mcp__everything__trigger-long-running-operation: ${step}/3`));
    expect(warnings).toEqual([]);
  });

  it('ends a call at maxCallTimeoutMs however often its progress restarted the timeout', async () => {
    const everything: StdioServerConfig = {
      name: 'everything',
      transport: 'stdio',
      command: process.execPath,
      args: [EVERYTHING_SCRIPT, 'stdio'],
      env: {},
      requestTimeoutMs: 1500,
      maxCallTimeoutMs: 2500,
      annotationTrust: 'ignore',
    };
    const { registry } = await connect([everything]);
    const result = await registry.get('mcp__everything__trigger-long-running-operation')?.execute({ duration: 8, steps: 8 });
    expect(result?.isError).toBe(true);
    expect(resultText(result ?? { isError: true, content: [] })).toMatch(/timed out|timeout/i);
    expect(progress.length).toBeGreaterThanOrEqual(1);
    expect(progress.length).toBeLessThan(8);
  });
});

describe('a command waits only for the servers it needs (SPEC A20)', () => {
  it("call of a healthy server's tool returns while another configured server hangs at start", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'call-needs-'));
    writeFileSync(
      path.join(dir, 'agent-cli.yaml'),
      [
        'mcp:',
        '  servers:',
        `    - { name: hung, command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(PEER)}, --hang-initialize], startupTimeoutMs: 60000 }`,
        `    - { name: ok, command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(PEER)}] }`,
        '',
      ].join('\n'),
    );
    const run = await runBuiltCli(['call', 'mcp__ok__echo', '{"text":"hi"}'], { cwd: dir, env: { PATH: process.env.PATH } });
    expect(run).toMatchObject({ code: 0, stdout: '{"text":"hi"}\n' });
    expect(run.stderr).not.toContain('hung');
  }, 30_000);
});
