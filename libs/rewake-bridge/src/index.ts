/** Maps inbound MCP notifications to external events that wake a waiting agent (SPEC A7, seed §7.2). */
// What the agent CLI imports, by name; everything else under lib/ is internal.
export { type EventFilter } from './lib/external-event';
export { LOG_LEVELS, type MappingRule, ruleProblem } from './lib/mapping-rule';
export { NotificationMapper } from './lib/notification-mapper';
export { DEFAULT_EVENT_BUFFER_SIZE, type EventWaiter, ExternalEventResolver, MAX_WAIT_MS } from './lib/external-event-resolver';
export { McpNotificationToRewakeBridge } from './lib/rewake-bridge';
