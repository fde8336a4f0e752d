/**
 * The `x-mcp-header` rules are the protocol's (libs/protocol), shared by the gateway, which refuses a
 * tool that breaks them at load, and the agent's client, which drops such a tool from a server's list.
 */
export { readMcpHeaderBindings, type McpHeaderBinding } from '@toolmesh/protocol';
