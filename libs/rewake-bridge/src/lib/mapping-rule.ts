import { McpNotification } from '@toolmesh/protocol';

/** MCP logging levels (RFC 5424 severities), least severe first. */
export const LOG_LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/**
 * Which notifications become events, and of what type. A rule matches when its method matches and every
 * optional matcher it has holds; the first matching rule decides the event's type.
 */
export interface MappingRule {
  /** A method name, or a glob in which `*` stands for any run of characters (`notifications/jobs/*`). */
  readonly method: string;
  /** The event type to emit: lowercase letters, digits, `.`, `_` and `-`, starting with a letter. */
  readonly type: string;
  /** Only notifications of this server (its configured name). */
  readonly server?: string;
  /** Only notifications whose `params.uri` is a string starting with this. */
  readonly uriPrefix?: string;
  /** Only notifications whose `params.level` is a logging level at least this severe. */
  readonly minLevel?: LogLevel;
}

/** Rules that apply after the configured ones unless switched off: resource updates and log messages. */
export const DEFAULT_RULES: readonly MappingRule[] = [
  { method: McpNotification.ResourceUpdated, type: 'resource.updated' },
  { method: McpNotification.Message, type: 'log' },
];

/**
 * Notifications the protocol machinery consumes (list refreshes, progress of a call, cancellation): never
 * events, whatever a rule says, so that a broad glob like `notifications/*` cannot wake an agent for them.
 */
export const PROTOCOL_NOTIFICATIONS: ReadonlySet<string> = new Set([
  McpNotification.Initialized,
  McpNotification.Cancelled,
  McpNotification.Progress,
  McpNotification.ToolsListChanged,
  McpNotification.ResourcesListChanged,
  McpNotification.PromptsListChanged,
]);

const EVENT_TYPE_PATTERN = /^[a-z][a-z0-9._-]{0,63}$/;

/** What is wrong with a rule, naming the field, or undefined; shared by the mapper and the config loader. */
export function ruleProblem(rule: MappingRule): { readonly field: keyof MappingRule; readonly problem: string } | undefined {
  if (typeof rule.method !== 'string' || rule.method.trim() === '')
    return { field: 'method', problem: 'must be a method name or a glob such as "notifications/jobs/*"' };
  if (typeof rule.type !== 'string' || !EVENT_TYPE_PATTERN.test(rule.type)) {
    return {
      field: 'type',
      problem: 'must be at most 64 lowercase letters, digits, ".", "_" or "-", starting with a letter (e.g. "job.finished")',
    };
  }
  if (rule.minLevel !== undefined && !LOG_LEVELS.includes(rule.minLevel))
    return { field: 'minLevel', problem: `must be one of ${LOG_LEVELS.join(', ')}` };
  for (const field of ['server', 'uriPrefix'] as const) {
    if (rule[field] !== undefined && (typeof rule[field] !== 'string' || rule[field] === ''))
      return { field, problem: 'must be a non-empty string when given' };
  }
  return undefined;
}

export function levelRank(level: unknown): number {
  return LOG_LEVELS.indexOf(level as LogLevel);
}
