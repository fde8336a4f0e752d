// What the apps import from the MCP client, by name; everything else under lib/ is internal (ADR 0018).
export {
  type CallToolOptions,
  type CallToolResult,
  type GetPromptResult,
  type Implementation,
  type InputRequiredResult,
  McpClient,
  type Prompt,
  type ReadResourceResult,
  type RelayedAnswers,
  type Resource,
  type ResourceTemplate,
  type Tool,
  type ToolAnnotations,
} from './lib/mcp-client';
export { type RelayedMethod, type RelayedResults } from './lib/exchanged-call';
export {
  type CompleteResult,
  type CompletionParams,
  type ServerFeature,
  type ServerFeatures,
  type SkillEntry,
  type SkillFile,
} from './lib/server-features';
export { McpSession, type SessionConnection, type SessionState } from './lib/session/mcp-session';
export {
  type CreateMessageRequestParams,
  type CreateMessageResult,
  type ElicitResult,
  type SamplingRefusal,
  type ServerRequestHandlers,
  type UrlElicitationHandlers,
} from './lib/server-requests';
export { McpClientError, McpClientErrorCode } from './lib/client-errors';
export { isTerminal, type McpTask, type TaskCallOutcome, type TaskStatus } from './lib/tasks/mcp-task';
export { TaskClient } from './lib/tasks/task-client';
export { ERA_SETTINGS, type EraSetting, type EraVerdict } from './lib/client-era';
