/**
 * The agent CLI's MCP layer as the CLI assembles it, for the benchmarks in tools/bench: the one module under
 * apps/ they may import (eslint.config.mjs enforces it), so moving a class inside the app changes this file
 * rather than every benchmark. main.ts never imports it, so no build ships it.
 */
export { TransportClientFactory } from './mcp/client-factory';
export { McpClientManager } from './mcp/client-manager';
export type { StdioServerConfig } from './mcp/server-config';
export { ToolRegistry } from './tools/tool-registry';
