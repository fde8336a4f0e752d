import { globPattern, type ServerNotification } from '@toolmesh/protocol';

import { summarize } from './event-summary';
import type { ExternalEvent } from './external-event';
import { DEFAULT_RULES, levelRank, type MappingRule, PROTOCOL_NOTIFICATIONS, ruleProblem } from './mapping-rule';
import { RewakeError, RewakeErrorCode } from './rewake-errors';

/** An event before the bridge numbers it. */
export type MappedEvent = Omit<ExternalEvent, 'id'>;

/** Turns a notification into an event, or into nothing when no rule wants it. */
export interface NotificationMapping {
  map(notification: ServerNotification): MappedEvent | undefined;
}

export interface NotificationMapperOptions {
  /** Apply DEFAULT_RULES after the given ones (default true). */
  readonly defaults?: boolean;
}

interface CompiledRule {
  readonly rule: MappingRule;
  readonly method: RegExp;
  readonly minRank: number;
}

/**
 * Maps notifications to events by rules: the configured ones first, in order, then (unless switched off)
 * the defaults for resource updates and log messages. The first rule that matches decides; a
 * notification no rule matches, and every protocol notification (list changes, progress), is no event.
 */
export class NotificationMapper implements NotificationMapping {
  private readonly rules: readonly CompiledRule[];

  constructor(rules: readonly MappingRule[] = [], options: NotificationMapperOptions = {}) {
    rules.forEach((rule, index) => {
      const problem = ruleProblem(rule);
      if (problem) throw new RewakeError(RewakeErrorCode.InvalidRule, `rewake rule ${index + 1}: ${problem.field} ${problem.problem}`);
    });
    this.rules = [...rules, ...(options.defaults === false ? [] : DEFAULT_RULES)].map((rule) => ({
      rule,
      method: globPattern(rule.method),
      minRank: rule.minLevel === undefined ? -1 : levelRank(rule.minLevel),
    }));
  }

  map({ server, notification, receivedAt }: ServerNotification): MappedEvent | undefined {
    const method: unknown = notification?.method;
    if (typeof method !== 'string' || PROTOCOL_NOTIFICATIONS.has(method)) return undefined;
    const params = notification.params as Record<string, unknown> | undefined;
    const match = this.rules.find((compiled) => matches(compiled, server, method, params));
    if (!match) return undefined;
    return { server, type: match.rule.type, method, summary: summarize(params), receivedAt: isoTime(receivedAt) };
  }
}

function matches(
  { rule, method: pattern, minRank }: CompiledRule,
  server: string,
  method: string,
  params: Record<string, unknown> | undefined,
): boolean {
  if (!pattern.test(method)) return false;
  if (rule.server !== undefined && rule.server !== server) return false;
  const fields = typeof params === 'object' && params !== null ? params : {};
  if (rule.uriPrefix !== undefined && !(typeof fields.uri === 'string' && fields.uri.startsWith(rule.uriPrefix))) return false;
  // An unknown or missing level ranks -1, below every minimum.
  return minRank === -1 || levelRank(fields.level) >= minRank;
}

/** The arrival time as ISO 8601; a missing or invalid date (never from our own clients) becomes now. */
function isoTime(receivedAt: unknown): string {
  return receivedAt instanceof Date && !Number.isNaN(receivedAt.getTime()) ? receivedAt.toISOString() : new Date().toISOString();
}
