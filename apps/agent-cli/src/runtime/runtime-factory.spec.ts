import path from 'node:path';

import { eventually, pidsWithCommandLine } from '@toolmesh/test-peers/process-table';
import { REPO_ROOT } from '@toolmesh/test-peers/server-process';

import { TransportClientFactory } from '../mcp/client-factory';
import { McpClientManager } from '../mcp/client-manager';
import type { StdioServerConfig } from '../mcp/server-config';
import { ToolRegistry } from '../tools/tool-registry';
import { AgentRuntime } from './agent-runtime';
import { createAgentRuntime } from './runtime-factory';

const PEER = path.join(REPO_ROOT, 'tools/test/peers/stdio-peer.mjs');
const server = (name: string): StdioServerConfig => ({
  name,
  transport: 'stdio',
  command: process.execPath,
  args: [PEER, `--name=${name}`],
  env: {},
  requestTimeoutMs: 5000,
  annotationTrust: 'ignore',
});

describe('createAgentRuntime', () => {
  it("returns a runtime whose registry holds the servers' tools, and whose close() stops the servers", async () => {
    const factory = new TransportClientFactory({ name: 'runtime-test', version: '0' });
    const runtime = await createAgentRuntime(
      { file: 'x', servers: [server('rt-one')] },
      { clientFactory: factory, log: { warn: () => undefined }, workingDirectory: process.cwd() },
    );
    expect(runtime.tools.list().map((t) => t.name)).toContain('mcp__rt-one__echo');
    expect(runtime.servers).toEqual([expect.objectContaining({ name: 'rt-one', state: 'connected', toolCount: 4 })]);
    expect(pidsWithCommandLine('--name=rt-one')).toHaveLength(1);

    await runtime.close();
    expect(pidsWithCommandLine('--name=rt-one')).toEqual([]);
  });

  it('closes what it made when creating the runtime fails, so no server is left running', async () => {
    const factory = new TransportClientFactory({ name: 'runtime-test', version: '0' });
    let factoryClosed = false;
    const closeFactory = factory.close.bind(factory);
    factory.close = () => {
      factoryClosed = true;
      return closeFactory();
    };
    // A progress writer that fails once the server is up (think EPIPE on stderr) makes creation fail late.
    const onProgress = (event: { kind: string }) => {
      if (event.kind === 'settled') throw new Error('stderr is gone');
    };

    await expect(
      createAgentRuntime(
        { file: 'x', servers: [server('rt-fail')] },
        { clientFactory: factory, log: { warn: () => undefined }, onProgress, workingDirectory: process.cwd() },
      ),
    ).rejects.toThrow('stderr is gone');

    expect(factoryClosed).toBe(true);
    expect(await eventually(() => pidsWithCommandLine('--name=rt-fail').length === 0)).toBe(true);
  });
});

describe('AgentRuntime.close', () => {
  it('closes the client manager first, logs a failure and goes on, and closes only once', async () => {
    const order: string[] = [];
    const warnings: string[] = [];
    const manager = new McpClientManager(
      {
        create: () => {
          throw new Error('unused');
        },
        close: async () => undefined,
      },
      { warn: () => undefined },
    );
    const runtime = new AgentRuntime(
      new ToolRegistry(),
      manager,
      [],
      [
        {
          name: 'the MCP client manager',
          close: async () => {
            order.push('manager');
            throw new Error('boom');
          },
        },
        {
          name: 'the MCP client factory',
          close: async () => {
            order.push('factory');
          },
        },
      ],
      (message) => warnings.push(message),
    );

    await Promise.all([runtime.close(), runtime.close()]);

    expect(order).toEqual(['manager', 'factory']);
    expect(warnings).toEqual(['closing the MCP client manager failed: boom']);
  });
});
