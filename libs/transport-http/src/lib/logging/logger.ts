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
    let line = `${new Date().toISOString()} level=${info.level} event=${String(info.message)}`;
    for (const key of Object.keys(info)) {
      if (key === 'level' || key === 'message' || FORBIDDEN_FIELDS.has(key.toLowerCase())) continue;
      const value = info[key];
      if (value !== undefined) line += ` ${key}=${quote(value)}`;
    }
    const context = currentRequestContext();
    if (context) {
      if (info.guid === undefined) line += ` guid=${quote(context.guid)}`;
      if (info.requestId === undefined) line += ` requestId=${quote(context.requestId)}`;
    }
    info[MESSAGE] = line;
    return info;
  },
};

function quote(value: unknown): string {
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
