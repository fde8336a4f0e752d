import { Writable } from 'node:stream';
import winston, { type Logform } from 'winston';
import { currentRequestContext } from '../server/request-context';
import { BatchingStreamTransport, MESSAGE } from './batching-transport';

type Format = Logform.Format;

export type LogFormat = 'kv' | 'json';

export interface LoggerOptions {
  level?: string;
  /** `kv`: one `key=value` line per event (default); `json`: one JSON object per line. */
  format?: LogFormat;
  /** Where lines go (standard output by default), batched per event-loop turn. Tests pass a stream to read them. */
  stream?: Writable;
}

/**
 * Field names that must never reach a log line (SPEC G3), whatever a caller passes. A second line of
 * defence: the code logs none of these in the first place.
 */
const FORBIDDEN_FIELDS = new Set([
  'authorization',
  'cookie',
  'set-cookie',
  'x-api-key',
  'sessionid',
  'mcp-session-id',
  'employeeno',
  'employee-no',
  'virtualemployeeno',
  'virtual-employee-no',
  'body',
  'arguments',
]);

/** Adds the current request's guid and requestId, and drops forbidden fields (the JSON format's first step). */
const correlation = winston.format((info) => {
  for (const key of Object.keys(info)) if (FORBIDDEN_FIELDS.has(key.toLowerCase())) delete info[key];
  const context = currentRequestContext();
  if (context) {
    info.guid ??= context.guid;
    info.requestId ??= context.requestId;
  }
  return info;
});

/**
 * The default `key=value` line in one pass over the fields: time, level, event, the fields but the
 * forbidden ones, then the current request's guid and requestId. One format instead of a combination of
 * three, because the gateway logs three lines per call (docs/adr/0005-gateway-hot-path.md).
 */
const keyValueLine: Format = {
  transform(info) {
    let line = `${timestamp()} level=${info.level} event=${String(info.message)}`;
    for (const key of Object.keys(info)) {
      if (key === 'level' || key === 'message' || FORBIDDEN_FIELDS.has(key.toLowerCase())) continue;
      const value = info[key];
      if (value !== undefined) line += ` ${key}=${quote(value)}`;
    }
    const context = currentRequestContext();
    if (context) {
      // Correlation ids are held to an inert alphabet where they are read (correlation-headers.ts).
      if (info.guid === undefined) line += ` guid=${context.guid}`;
      if (info.requestId === undefined) line += ` requestId=${context.requestId}`;
    }
    info[MESSAGE] = line;
    return info;
  },
};

/** The time of a line; one ISO string per millisecond, as a busy gateway logs several lines in each. */
let stampedAt = 0;
let stamp = '';
function timestamp(): string {
  const now = Date.now();
  if (now !== stampedAt) {
    stampedAt = now;
    stamp = new Date(now).toISOString();
  }
  return stamp;
}

function quote(value: unknown): string {
  if (typeof value === 'number') return String(value);
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return /^[^\s="]*$/.test(text) && text !== '' ? text : JSON.stringify(text);
}

/** The one logger of a process: events are names (`mcp_http_request_received`), details are fields. */
export function createLogger(options: LoggerOptions = {}): winston.Logger {
  return winston.createLogger({
    level: options.level ?? 'info',
    format: options.format === 'json' ? winston.format.combine(correlation(), winston.format.timestamp(), winston.format.json()) : keyValueLine,
    transports: [new BatchingStreamTransport(options.stream ?? process.stdout)],
  });
}

export type Logger = winston.Logger;
