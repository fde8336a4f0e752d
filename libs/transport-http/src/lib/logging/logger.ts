import { Writable } from 'node:stream';
import winston from 'winston';
import { currentRequestContext } from '../server/request-context';
import { BatchingStreamTransport } from './batching-transport';

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

/** Adds the current request's guid and requestId, and drops forbidden fields. */
const correlation = winston.format((info) => {
  for (const key of Object.keys(info)) if (FORBIDDEN_FIELDS.has(key.toLowerCase())) delete info[key];
  const context = currentRequestContext();
  if (context) {
    info.guid ??= context.guid;
    info.requestId ??= context.requestId;
  }
  return info;
});

const keyValueLine = winston.format.printf((info) => {
  const { level, message, timestamp, ...fields } = info;
  let line = `${String(timestamp)} level=${level} event=${String(message)}`;
  for (const [key, value] of Object.entries(fields)) {
    if (value !== undefined) line += ` ${key}=${quote(value)}`;
  }
  return line;
});

function quote(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return /^[^\s="]*$/.test(text) && text !== '' ? text : JSON.stringify(text);
}

/** The one logger of a process: events are names (`mcp_http_request_received`), details are fields. */
export function createLogger(options: LoggerOptions = {}): winston.Logger {
  return winston.createLogger({
    level: options.level ?? 'info',
    format: winston.format.combine(
      correlation(),
      winston.format.timestamp(),
      options.format === 'json' ? winston.format.json() : keyValueLine,
    ),
    transports: [new BatchingStreamTransport(options.stream ?? process.stdout)],
  });
}

export type Logger = winston.Logger;
