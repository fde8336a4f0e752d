import type { EventSummary } from './external-event';

/** Each summary field is cut to this many characters, so one chatty server cannot flood a model's context. */
export const SUMMARY_FIELD_MAX_CHARS = 1000;

/** The params keys that get a summary field of their own; `_meta` is protocol bookkeeping. */
const NAMED_KEYS = new Set(['uri', 'level', 'logger', 'data', '_meta']);

/**
 * The bounded summary of a notification's params. Params come from a peer and may be anything (absent,
 * an array, a string, fields of the wrong type): whatever does not fit is left out, nothing throws.
 */
export function summarize(params: unknown): EventSummary {
  if (typeof params !== 'object' || params === null || Array.isArray(params)) {
    return params === undefined ? {} : { data: bounded(params) };
  }
  const fields = params as Record<string, unknown>;
  const rest = Object.fromEntries(Object.entries(fields).filter(([key]) => !NAMED_KEYS.has(key)));
  const data = 'data' in fields ? fields.data : Object.keys(rest).length > 0 ? rest : undefined;
  return omitUndefined({
    uri: stringField(fields.uri),
    level: stringField(fields.level),
    logger: stringField(fields.logger),
    data: data === undefined ? undefined : bounded(data),
  });
}

function stringField(value: unknown): string | undefined {
  return typeof value === 'string' ? cut(value) : undefined;
}

/** Text as is, anything else as JSON; either way at most SUMMARY_FIELD_MAX_CHARS characters. */
function bounded(value: unknown): string {
  if (typeof value === 'string') return cut(value);
  try {
    return cut(JSON.stringify(value) ?? String(value));
  } catch {
    return '[not representable as JSON]';
  }
}

function cut(text: string): string {
  return text.length <= SUMMARY_FIELD_MAX_CHARS ? text : `${text.slice(0, SUMMARY_FIELD_MAX_CHARS - 1)}…`;
}

function omitUndefined(summary: Record<keyof EventSummary, string | undefined>): EventSummary {
  return Object.fromEntries(Object.entries(summary).filter(([, value]) => value !== undefined));
}
