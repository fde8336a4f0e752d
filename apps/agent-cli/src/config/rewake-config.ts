import { DEFAULT_EVENT_BUFFER_SIZE, LOG_LEVELS, type MappingRule, ruleProblem } from '@toolmesh/rewake-bridge';

import type { ConfigReader } from './config-reader';

/** The `rewake:` section: which server notifications become events that wake a waiting agent. */
export interface RewakeConfig {
  /** Tried in order before the default rules; the first match decides the event type. */
  readonly rules: readonly MappingRule[];
  /** Whether resource updates (`resource.updated`) and log messages (`log`) are events without a rule. */
  readonly defaults: boolean;
  /** Undelivered events kept for the next WaitForEvent; the oldest is dropped when full. */
  readonly bufferSize: number;
}

export const REWAKE_KEYS = ['rules', 'defaults', 'bufferSize'] as const;
export const REWAKE_RULE_KEYS = ['method', 'type', 'server', 'uriPrefix', 'minLevel'] as const;
/** Events are bounded (about 4 KB each), so this caps the buffer at some tens of MB. */
const MAX_EVENT_BUFFER_SIZE = 10_000;

export const DEFAULT_REWAKE_CONFIG: RewakeConfig = { rules: [], defaults: true, bufferSize: DEFAULT_EVENT_BUFFER_SIZE };

/** Reads `rewake:`; absent means the defaults. Every problem names its setting (`rewake.rules[0].type`). */
export function readRewakeConfig(section: ConfigReader, serverNames: readonly string[]): RewakeConfig {
  if (!section.present) return DEFAULT_REWAKE_CONFIG;
  section.onlyKeys(REWAKE_KEYS);
  const bufferSize = section.at('bufferSize').positiveInteger(DEFAULT_EVENT_BUFFER_SIZE);
  if (bufferSize > MAX_EVENT_BUFFER_SIZE) throw section.at('bufferSize').error(`at most ${MAX_EVENT_BUFFER_SIZE}`);
  return {
    rules: section
      .at('rules')
      .list()
      .map((entry) => readRule(entry, serverNames)),
    defaults: section.at('defaults').boolean(true),
    bufferSize,
  };
}

function readRule(entry: ConfigReader, serverNames: readonly string[]): MappingRule {
  entry.onlyKeys(REWAKE_RULE_KEYS);
  const rule: MappingRule = {
    method: entry.at('method').string(),
    type: entry.at('type').string(),
    ...optional('server', entry.at('server').optionalString()),
    ...optional('uriPrefix', entry.at('uriPrefix').optionalString()),
    ...optional('minLevel', entry.at('minLevel').present ? entry.at('minLevel').oneOf(LOG_LEVELS, 'debug') : undefined),
  };
  const problem = ruleProblem(rule);
  if (problem) throw entry.at(problem.field).fail(problem.problem);
  if (rule.server !== undefined && !serverNames.includes(rule.server)) {
    throw entry
      .at('server')
      .fail(`is "${rule.server}", which is not a configured server (configured: ${serverNames.join(', ') || 'none'})`);
  }
  return rule;
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}
