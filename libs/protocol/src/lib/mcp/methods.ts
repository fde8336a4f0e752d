import {
  CallToolRequestSchema,
  CancelledNotificationSchema,
  CompleteRequestSchema,
  DiscoverRequestSchema,
  ElicitationCompleteNotificationSchema,
  GetPromptRequestSchema,
  InitializedNotificationSchema,
  InitializeRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  LoggingLevelSchema,
  LoggingMessageNotificationSchema,
  PingRequestSchema,
  ProgressNotificationSchema,
  PromptListChangedNotificationSchema,
  ReadResourceRequestSchema,
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
  SetLevelRequestSchema,
  SubscribeRequestSchema,
  SubscriptionsAcknowledgedNotificationSchema,
  SubscriptionsListenRequestSchema,
  ToolListChangedNotificationSchema,
  UnsubscribeRequestSchema,
} from '@modelcontextprotocol/core';

/** Reads the literal method name out of an SDK schema, so no method name is ever retyped here. */
function methodOf<M extends string>(schema: { shape: { method: { value: M } } }): M {
  return schema.shape.method.value;
}

/** MCP method names used by this project, taken from the SDK's own schemas. */
export const McpMethod = {
  Initialize: methodOf(InitializeRequestSchema),
  Ping: methodOf(PingRequestSchema),
  ToolsList: methodOf(ListToolsRequestSchema),
  ToolsCall: methodOf(CallToolRequestSchema),
  ResourcesList: methodOf(ListResourcesRequestSchema),
  ResourceTemplatesList: methodOf(ListResourceTemplatesRequestSchema),
  ResourcesRead: methodOf(ReadResourceRequestSchema),
  ResourcesSubscribe: methodOf(SubscribeRequestSchema),
  ResourcesUnsubscribe: methodOf(UnsubscribeRequestSchema),
  PromptsList: methodOf(ListPromptsRequestSchema),
  PromptsGet: methodOf(GetPromptRequestSchema),
  LoggingSetLevel: methodOf(SetLevelRequestSchema),
  CompletionComplete: methodOf(CompleteRequestSchema),
  /** 2026-07-28 */
  ServerDiscover: methodOf(DiscoverRequestSchema),
  /** 2026-07-28 */
  SubscriptionsListen: methodOf(SubscriptionsListenRequestSchema),
} as const;

/** MCP notification names used by this project, taken from the SDK's own schemas. */
export const McpNotification = {
  Initialized: methodOf(InitializedNotificationSchema),
  Cancelled: methodOf(CancelledNotificationSchema),
  Progress: methodOf(ProgressNotificationSchema),
  Message: methodOf(LoggingMessageNotificationSchema),
  ToolsListChanged: methodOf(ToolListChangedNotificationSchema),
  ResourcesListChanged: methodOf(ResourceListChangedNotificationSchema),
  ResourceUpdated: methodOf(ResourceUpdatedNotificationSchema),
  PromptsListChanged: methodOf(PromptListChangedNotificationSchema),
  /** 2026-07-28: the first message of a listen stream. */
  SubscriptionsAcknowledged: methodOf(SubscriptionsAcknowledgedNotificationSchema),
  /** 2025-11-25: a URL-mode elicitation's out-of-band interaction completed. */
  ElicitationComplete: methodOf(ElicitationCompleteNotificationSchema),
} as const;

export type McpMethod = (typeof McpMethod)[keyof typeof McpMethod];
export type McpNotification = (typeof McpNotification)[keyof typeof McpNotification];

/** The log levels of `logging/setLevel` (2025) and of `_meta` `logLevel` (2026-07-28), from the SDK's schema. */
export const LOGGING_LEVELS: readonly string[] = LoggingLevelSchema.options;

export function isLoggingLevel(value: unknown): boolean {
  return typeof value === 'string' && LOGGING_LEVELS.includes(value);
}
