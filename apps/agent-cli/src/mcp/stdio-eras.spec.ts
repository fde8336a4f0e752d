import { mkdtempSync, readFileSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { EVERYTHING_SCRIPT } from '@toolmesh/test-peers/mcp-servers';
import { eventually, pidsWithCommandLine } from '@toolmesh/test-peers/process-table';

import { connectedServers } from '../test-support/connected-servers';
import { resultText } from '../tools/tool';
import type { StdioServerConfig } from './server-config';

const ROOT = path.join(__dirname, '../../../..');
const PEER = path.join(ROOT, 'tools/test/peers/stdio-peer.mjs');

/**
 * Era detection over stdio (SPEC A18) with real processes: `auto` probes a legacy server in place
 * (server/discover, then initialize on the same process) and leaves no process behind; a legacy server
 * that exits on the probe is started again and met with initialize. Each server runs under a path of
 * its own (a symlink in a fresh folder), so the process table shows exactly this test's processes.
 */
function uniquePath(script: string): string {
  const link = path.join(mkdtempSync(path.join(tmpdir(), 'stdio-eras-')), path.basename(script));
  symlinkSync(script, link);
  return link;
}

const servers = connectedServers('stdio-eras-test');

async function connect(config: StdioServerConfig) {
  const { statuses, registry } = await servers.connect([config]);
  return { status: statuses[0], registry };
}

describe('era detection over stdio', () => {
  it('finds server-everything legacy with era auto, in place: one process while connected, none after', async () => {
    const script = uniquePath(EVERYTHING_SCRIPT);
    const { status, registry } = await connect({
      name: 'everything',
      transport: 'stdio',
      command: process.execPath,
      args: [script],
      env: {},
      requestTimeoutMs: 10_000,
      annotationTrust: 'ignore',
    });

    expect(status).toMatchObject({ state: 'connected', protocolVersion: expect.stringMatching(/^2025-/) });
    expect(pidsWithCommandLine(script)).toHaveLength(1);
    const result = await registry.get('mcp__everything__echo')?.execute({ message: 'eras' });
    expect(result && resultText(result)).toContain('eras');

    await servers.manager?.close();
    expect(await eventually(() => pidsWithCommandLine(script).length === 0)).toBe(true);
  });

  it('meets a legacy server that exits on server/discover with initialize on a new process, and leaves none behind', async () => {
    const script = uniquePath(PEER);
    const record = path.join(mkdtempSync(path.join(tmpdir(), 'stdio-eras-record-')), 'methods');
    const config: StdioServerConfig = {
      name: 'strict',
      transport: 'stdio',
      command: process.execPath,
      args: [script, '--exit-before-initialize', `--record=${record}`],
      env: {},
      requestTimeoutMs: 10_000,
      annotationTrust: 'ignore',
    };
    const { status, registry } = await connect(config);

    expect(status).toMatchObject({ state: 'connected', protocolVersion: '2025-11-25' });
    // The first process got the probe and exited; the second got initialize first.
    expect(readFileSync(record, 'utf8').split('\n').slice(0, 3)).toEqual(['server/discover', 'initialize', 'notifications/initialized']);
    expect(pidsWithCommandLine(script)).toHaveLength(1);
    expect(registry.get('mcp__strict__echo')).toBeDefined();

    await servers.manager?.close();
    expect(await eventually(() => pidsWithCommandLine(script).length === 0)).toBe(true);
  });

  it('keeps the verdict for the session: the reconnection after a crash sends initialize without probing again', async () => {
    const script = uniquePath(PEER);
    const record = path.join(mkdtempSync(path.join(tmpdir(), 'stdio-eras-record-')), 'methods');
    const { registry } = await connect({
      name: 'crashy',
      transport: 'stdio',
      command: process.execPath,
      args: [script, '--crash-on-call', `--record=${record}`],
      env: {},
      requestTimeoutMs: 10_000,
      annotationTrust: 'ignore',
    });
    await registry.get('mcp__crashy__echo')?.execute({ text: 'boom' });
    expect(
      await eventually(
        () =>
          servers.manager?.status[0].state === 'connected' &&
          readFileSync(record, 'utf8')
            .split('\n')
            .filter((m) => m === 'initialize').length === 2,
      ),
    ).toBe(true);
    const methods = readFileSync(record, 'utf8').split('\n');
    expect(methods.filter((m) => m === 'server/discover')).toHaveLength(1);
    expect(methods.indexOf('server/discover')).toBe(0);
  });

  it('speaks legacy straight away with era legacy: no probe', async () => {
    const script = uniquePath(PEER);
    const record = path.join(mkdtempSync(path.join(tmpdir(), 'stdio-eras-record-')), 'methods');
    const { status } = await connect({
      name: 'plain',
      transport: 'stdio',
      command: process.execPath,
      args: [script, `--record=${record}`],
      env: {},
      requestTimeoutMs: 10_000,
      annotationTrust: 'ignore',
      era: 'legacy',
    });
    expect(status.state).toBe('connected');
    expect(readFileSync(record, 'utf8').split('\n')[0]).toBe('initialize');
  });

  it('fails a server pinned to 2026-07-28 that only speaks 2025, saying why, and leaves no process', async () => {
    const script = uniquePath(PEER);
    const { status } = await connect({
      name: 'pinned',
      transport: 'stdio',
      command: process.execPath,
      args: [script],
      env: {},
      requestTimeoutMs: 5000,
      annotationTrust: 'ignore',
      era: '2026-07-28',
    });
    expect(status).toMatchObject({ state: 'failed', error: expect.stringContaining('2026-07-28') });
    expect(await eventually(() => pidsWithCommandLine(script).length === 0)).toBe(true);
  });
});
