import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';

import { freePort } from '@toolmesh/test-peers/free-port';
import { until } from '@toolmesh/test-peers/process-table';

import { ToolRegistry } from '../tools/tool-registry';
import { TransportClientFactory } from './client-factory';
import { McpClientManager } from './client-manager';

const EVERYTHING = path.join(__dirname, '../../../../node_modules/@modelcontextprotocol/server-everything/dist/index.js');

let server: ChildProcess | undefined;
afterEach(async () => {
  if (server && server.exitCode === null) {
    server.kill('SIGKILL');
    await once(server, 'exit');
  }
});

describe('the legacy HTTP+SSE transport (transport: sse)', () => {
  it('lists and calls the tools of server-everything in SSE mode', async () => {
    const port = await freePort();
    server = spawn(process.execPath, [EVERYTHING, 'sse'], {
      env: { PATH: process.env.PATH ?? '', PORT: String(port) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let log = '';
    server.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
    await until(() => log.includes(`running on port ${port}`), 'server-everything (sse) listening');

    const factory = new TransportClientFactory({ name: 'sse-test', version: '0' });
    const manager = new McpClientManager(factory, { warn: () => undefined });
    try {
      const [status] = await manager.connectAll([
        {
          name: 'old',
          transport: 'sse',
          url: new URL(`http://127.0.0.1:${port}/sse`),
          headers: {},
          requestTimeoutMs: 10_000,
          annotationTrust: 'ignore',
        },
      ]);
      expect(status).toMatchObject({ state: 'connected', transport: 'sse', serverInfo: { name: expect.stringContaining('everything') } });
      const registry = new ToolRegistry();
      await manager.registerAllTools(registry);
      expect(registry.list().map((t) => t.name)).toContain('mcp__old__echo');
      expect(await registry.get('mcp__old__echo')?.execute({ message: 'over sse' })).toMatchObject({
        isError: false,
        content: [{ type: 'text', text: 'Echo: over sse' }],
      });
    } finally {
      await manager.close();
      await factory.close();
    }
  });
});
