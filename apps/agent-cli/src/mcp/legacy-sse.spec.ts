import { type Everything, startEverything } from '@toolmesh/test-peers/mcp-servers';

import { ToolRegistry } from '../tools/tool-registry';
import { TransportClientFactory } from './client-factory';
import { McpClientManager } from './client-manager';

let server: Everything | undefined;
afterEach(() => server?.stop());

describe('the legacy HTTP+SSE transport (transport: sse)', () => {
  it('lists and calls the tools of server-everything in SSE mode', async () => {
    server = await startEverything('sse');

    const factory = new TransportClientFactory({ name: 'sse-test', version: '0' });
    const manager = new McpClientManager(factory, { warn: () => undefined });
    try {
      const [status] = await manager.connectAll([
        {
          name: 'old',
          transport: 'sse',
          url: new URL(server.url),
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
