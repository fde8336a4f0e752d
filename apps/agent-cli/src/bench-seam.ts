/**
 * The agent CLI's MCP layer and agent loop as the CLI assembles them, for the benchmarks in tools/bench: the one module under
 * apps/ they may import (eslint.config.mjs enforces it), so moving a class inside the app changes this file
 * rather than every benchmark. main.ts never imports it, so no build ships it.
 */
export { FLAG_APPROVER } from './agent/approval/approver';
export type { AssistantReply } from './agent/llm/chat-messages';
export type { ChatModel, CompletionRequest } from './agent/llm/chat-model';
export { AgentLoop } from './agent/loop/agent-loop';
export { Transcript } from './agent/transcript/transcript';
export { DEFAULT_LLM_CONFIG } from './config/llm-config';
export { TransportClientFactory } from './mcp/client-factory';
export { McpClientManager } from './mcp/client-manager';
export type { StdioServerConfig } from './mcp/server-config';
export { createAgentRuntime } from './runtime/runtime-factory';
export { ToolRegistry } from './tools/tool-registry';
