import { TransportClientFactory } from '../mcp/client-factory';
import { McpClientManager } from '../mcp/client-manager';
import type { McpServerConfig } from '../mcp/server-config';
import { ToolRegistry } from '../tools/tool-registry';

/**
 * Real servers behind a real client manager, for a spec: `connect` starts them and registers their tools;
 * after each test the manager and its transports are closed and the collected warnings and progress lines
 * cleared. Call it at a spec file's top level (it adds an `afterEach`).
 */
export function connectedServers(clientName: string) {
  const warnings: string[] = [];
  const progress: string[] = [];
  let manager: McpClientManager | undefined;
  let factory: TransportClientFactory | undefined;
  afterEach(async () => {
    await manager?.close();
    await factory?.close();
    manager = undefined;
    factory = undefined;
    warnings.length = 0;
    progress.length = 0;
  });
  return {
    warnings,
    progress,
    /** The manager of the current test's servers, once `connect` has run. */
    get manager(): McpClientManager | undefined {
      return manager;
    },
    async connect(configs: McpServerConfig[]) {
      factory = new TransportClientFactory({ name: clientName, version: '0' });
      manager = new McpClientManager(factory, { warn: (message) => warnings.push(message), progress: (line) => progress.push(line) });
      const statuses = await manager.connectAll(configs);
      const registry = new ToolRegistry();
      await manager.registerAllTools(registry);
      return { statuses, registry };
    },
  };
}
