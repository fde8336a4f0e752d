/** Maps inbound MCP notifications to external events that wake a waiting agent (SPEC A7, seed §7.2). */
export * from './lib/external-event';
export * from './lib/event-summary';
export * from './lib/mapping-rule';
export * from './lib/notification-mapper';
export * from './lib/external-event-resolver';
export * from './lib/rewake-bridge';
export * from './lib/rewake-errors';
