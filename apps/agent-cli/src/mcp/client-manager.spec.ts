import path from 'node:path';

import { McpClient } from '@toolmesh/mcp-client';
import { eventually, pidsWithCommandLine } from '@toolmesh/test-peers/process-table';
import { REPO_ROOT } from '@toolmesh/test-peers/server-process';

import { ToolRegistry } from '../tools/tool-registry';
import { type McpClientFactory, TransportClientFactory } from './client-factory';
import { McpClientManager, type ServerStatus } from './client-manager';
import type { McpServerConfig, StdioServerConfig } from './server-config';
import { ScriptedTransport, type ScriptedTransportOptions } from './test-support/scripted-transport';

const PEER = path.join(REPO_ROOT, 'tools/test/peers/stdio-peer.mjs');
const clientInfo = { name: 'manager-test', version: '0.0.0' };

function stdio(name: string, flags: string[] = [], extra: Partial<StdioServerConfig> = {}): StdioServerConfig {
  return {
    name,
    transport: 'stdio',
    command: process.execPath,
    args: [PEER, `--name=${name}`, ...flags],
    env: {},
    requestTimeoutMs: 5000,
    annotationTrust: 'ignore',
    ...extra,
  };
}

/** A factory of scripted clients, by server name; real transports for names it does not script. */
function scriptedFactory(
  scripts: Record<string, ScriptedTransportOptions>,
  transports: Record<string, ScriptedTransport> = {},
): McpClientFactory {
  const real = new TransportClientFactory(clientInfo);
  return {
    create: (config, onError) => {
      const script = scripts[config.name];
      if (!script) return real.create(config, onError);
      transports[config.name] = new ScriptedTransport(script);
      return new McpClient(transports[config.name], {
        serverName: config.name,
        clientInfo,
        requestTimeoutMs: config.requestTimeoutMs,
        onError,
      });
    },
    close: () => real.close(),
  };
}

const warnings: string[] = [];
const log = { warn: (message: string) => warnings.push(message) };
const byName = (statuses: ServerStatus[]) => Object.fromEntries(statuses.map((s) => [s.name, s]));

afterEach(() => {
  warnings.length = 0;
});

describe('McpClientManager', () => {
  it('connects real servers, registers their tools as mcp__<server>__<tool> with trust resolved per server, and closes them', async () => {
    const factory = new TransportClientFactory(clientInfo);
    const manager = new McpClientManager(factory, log);
    const registry = new ToolRegistry();

    const statuses = await manager.connectAll([stdio('trusted', [], { annotationTrust: 'trust' }), stdio('untrusted')]);
    await manager.registerAllTools(registry);

    expect(statuses.map((s) => [s.name, s.state])).toEqual([
      ['trusted', 'connected'],
      ['untrusted', 'connected'],
    ]);
    expect(byName(manager.status).trusted.toolCount).toBe(4);
    expect(registry.get('mcp__trusted__echo')?.sideEffects).toEqual({ level: 'read-only', destructive: false, basis: 'server-claim' });
    expect(registry.get('mcp__untrusted__echo')?.sideEffects).toEqual({ level: 'mutating', destructive: true, basis: 'assumed' });
    expect(registry.get('mcp__untrusted__echo')?.inputSchema).toEqual({
      type: 'object',
      properties: { text: { type: 'string' } },
      required: ['text'],
    });

    await manager.close();
    await factory.close();
    expect(manager.client('trusted')?.isConnected).toBeFalsy();
    expect(pidsWithCommandLine('--name=trusted')).toEqual([]);
  });

  it("under annotationTrust read-only believes a real server's readOnlyHint and nothing else", async () => {
    const tools = [
      { name: 'look', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true, destructiveHint: true } },
      { name: 'tidy', inputSchema: { type: 'object' }, annotations: { readOnlyHint: false, destructiveHint: false } },
    ];
    const factory = new TransportClientFactory(clientInfo);
    const manager = new McpClientManager(factory, log);
    const registry = new ToolRegistry();
    await manager.connectAll([stdio('cautious', [`--tools=${JSON.stringify(tools)}`], { annotationTrust: 'read-only' })]);
    await manager.registerAllTools(registry);

    expect(registry.get('mcp__cautious__look')?.sideEffects).toEqual({ level: 'read-only', destructive: false, basis: 'server-claim' });
    expect(registry.get('mcp__cautious__tidy')?.sideEffects).toEqual({ level: 'mutating', destructive: true, basis: 'assumed' });
    await manager.close();
    await factory.close();
  });

  it('starts every server at once, not one after another', async () => {
    ScriptedTransport.maxInFlightStarts = 0;
    const manager = new McpClientManager(
      scriptedFactory({ a: { startAfterMs: 50 }, b: { startAfterMs: 50 }, c: { startAfterMs: 50 } }),
      log,
    );
    const configs = ['a', 'b', 'c'].map((name) => stdio(name));

    const statuses = await manager.connectAll(configs);

    expect(statuses.every((s) => s.state === 'connected')).toBe(true);
    expect(ScriptedTransport.maxInFlightStarts).toBe(3);
    await manager.close();
  });

  it('uses max(request timeouts) + the spawn allowance as its one deadline, not a sum', () => {
    const manager = new McpClientManager(scriptedFactory({}), log, 30_000);
    expect(
      manager.startupDeadlineMs([
        stdio('a', [], { requestTimeoutMs: 10_000 }),
        stdio('b', [], { requestTimeoutMs: 20_000 }),
        stdio('c', [], { requestTimeoutMs: 5000 }),
      ]),
    ).toBe(50_000);
  });

  it('ends startup at the deadline, not later: the hung server is reported by name, closed and left out; the others are used', async () => {
    const transports: Record<string, ScriptedTransport> = {};
    const manager = new McpClientManager(
      scriptedFactory({ hung: { startAfterMs: 'never' }, late: { startAfterMs: 2500 } }, transports),
      log,
      600,
    );
    const registry = new ToolRegistry();
    const configs = [
      stdio('hung', [], { requestTimeoutMs: 400 }),
      stdio('late', [], { requestTimeoutMs: 400 }),
      stdio('fine', [], { requestTimeoutMs: 400 }),
    ];
    try {
      // The hung server never answers, so connectAll returns at the deadline (400 + 600 ms) and not before;
      // that it returns at all, with the others used, is the point (no upper bound: a busy machine is slow).
      const started = Date.now();
      const statuses = byName(await manager.connectAll(configs));
      expect(Date.now() - started).toBeGreaterThanOrEqual(980);
      await manager.registerAllTools(registry);
      expect(statuses.hung).toMatchObject({ state: 'failed', error: 'did not connect within the startup deadline of 1000 ms' });
      expect(statuses.late.state).toBe('failed');
      expect(statuses.fine.state).toBe('connected');
      // Closed, at once or when the connection's own start limit (the same deadline) fires a moment later.
      expect(await eventually(() => transports.hung.closeCalls === 1 && transports.late.closeCalls === 1)).toBe(true);
      // The late server's start finishes after the deadline: it must still never be used.
      await new Promise((resolve) => setTimeout(resolve, 2000));
      expect(registry.list().map((t) => t.name)).toEqual(['mcp__fine__echo', 'mcp__fine__env', 'mcp__fine__fail', 'mcp__fine__slow']);
      expect(manager.client('late')).toBeUndefined();
    } finally {
      await manager.close(); // also when an expectation failed: a live server process would keep Jest from exiting
    }
  });

  it('starts ten real servers, one hanging, one exiting at once and one answering too late: the seven others are registered, the three are reported by name, and startup ends by the deadline', async () => {
    // Generous times: ten Node processes start at once on two cores, next to other test suites.
    const manager = new McpClientManager(new TransportClientFactory(clientInfo), log, 3000);
    const healthy = Array.from({ length: 7 }, (_, i) => stdio(`s${i}`, [], { requestTimeoutMs: 2000 }));
    const configs = [
      ...healthy,
      stdio('hung', ['--hang-initialize'], { requestTimeoutMs: 2000 }),
      { ...stdio('quits', [], { requestTimeoutMs: 2000 }), args: ['-e', 'process.exit(2)'] },
      stdio('late', ['--initialize-delay=7500'], { requestTimeoutMs: 2000 }), // answers after it was given up
    ];
    const started = Date.now();
    try {
      const statuses = byName(await manager.connectAll(configs));
      const elapsed = Date.now() - started;
      const registry = new ToolRegistry();
      await manager.registerAllTools(registry);

      expect(manager.startupDeadlineMs(configs)).toBe(5000);
      expect(elapsed).toBeLessThan(5000 + 2000); // by the deadline, with a margin for a loaded machine; never the 7.5 s of "late"
      expect(healthy.map((c) => statuses[c.name].state)).toEqual(Array(7).fill('connected'));
      expect(statuses.hung).toMatchObject({ state: 'failed', error: expect.stringContaining('"hung"') });
      expect(statuses.quits).toMatchObject({ state: 'failed', error: expect.stringContaining('"quits"') }); // its exit, or the write it broke
      expect(statuses.late.state).toBe('failed');
      // After "late" would have answered, it is gone and none of its tools ever appeared.
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, 8000 - (Date.now() - started))));
      expect(
        await eventually(() => pidsWithCommandLine('--name=late').length === 0 && pidsWithCommandLine('--name=hung').length === 0),
      ).toBe(true);
      expect([...new Set(registry.list().map((t) => t.name.split('__')[1]))].sort()).toEqual(healthy.map((c) => c.name).sort());
      expect(manager.client('late')).toBeUndefined();
    } finally {
      await manager.close(); // also when an expectation failed, so no server outlives the test
    }
  });

  it('reports a server that fails, by name, and keeps the others', async () => {
    const manager = new McpClientManager(new TransportClientFactory(clientInfo), log);
    const statuses = byName(
      await manager.connectAll([
        stdio('ok'),
        { ...stdio('missing'), command: '/nonexistent/server' },
        stdio('mute', ['--hang-initialize'], { requestTimeoutMs: 300 }),
      ]),
    );
    expect(statuses.ok.state).toBe('connected');
    expect(statuses.missing).toMatchObject({ state: 'failed', error: expect.stringContaining('could not start "/nonexistent/server"') });
    // On a loaded machine the late answer to the era probe may be named after it.
    expect(statuses.mute).toMatchObject({
      state: 'failed',
      error: expect.stringMatching(/^MCP server "mute" did not finish initialize within 300 ms/),
    });
    expect(await eventually(() => pidsWithCommandLine('--name=mute').length === 0)).toBe(true);
    await manager.close();
  });

  it('explains a server that exits during startup with what it wrote to stderr', async () => {
    const manager = new McpClientManager(new TransportClientFactory(clientInfo), log);
    const [status] = await manager.connectAll([{ ...stdio('quitter'), args: ['-e', "console.error('missing API_KEY'); process.exit(1)"] }]);
    expect(status).toMatchObject({ state: 'failed', error: expect.stringMatching(/exited with code 1.*missing API_KEY/) });
    expect(status.error).not.toContain('\n');
  });

  it('keeps the first of two servers with one name and reports the second as a failure', async () => {
    const manager = new McpClientManager(new TransportClientFactory(clientInfo), log);
    const statuses = await manager.connectAll([stdio('twin', ['--tools=[]']), stdio('twin')]);
    expect(statuses.map((s) => s.state)).toEqual(['connected', 'failed']);
    expect(statuses[1].error).toContain('a server named "twin" is already configured');
    const registry = new ToolRegistry();
    await manager.registerAllTools(registry);
    expect(registry.list()).toEqual([]); // the first one (no tools) won
    await manager.close();
  });

  it('fans every server notification out to its listeners, with the server name', async () => {
    const manager = new McpClientManager(new TransportClientFactory(clientInfo), log);
    const seen: string[] = [];
    manager.addNotificationListener((event) => seen.push(`${event.server}:${event.notification.method}`));
    await manager.connectAll([stdio('chatty', ['--notify'])]);
    expect(await eventually(() => seen.length > 0)).toBe(true);
    expect(seen).toEqual(['chatty:notifications/message']);
    await manager.close();
  });

  it('on close, logs a server that fails to close and still closes the others', async () => {
    const manager = new McpClientManager(scriptedFactory({ broken: { closeFails: true } }), log);
    await manager.connectAll([stdio('broken'), stdio('healthy')]);
    await manager.close();
    expect(warnings).toEqual([expect.stringContaining('closing MCP server "broken" failed: close failed on purpose')]);
    expect(pidsWithCommandLine('--name=healthy')).toEqual([]);
  });

  it('refuses an invalid server name at registration time too', async () => {
    const manager = new McpClientManager(scriptedFactory({ 'Bad Name': {} }), log);
    const [status] = await manager.connectAll([{ ...stdio('x'), name: 'Bad Name' } as McpServerConfig]);
    expect(status).toMatchObject({ state: 'failed', error: expect.stringContaining('"Bad Name" is not allowed') });
  });
});
