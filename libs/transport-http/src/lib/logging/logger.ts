import { Writable } from 'node:stream';

import { escapeControlCharacters } from '@toolmesh/protocol';
import winston, { type Logform } from 'winston';

import { BatchingStreamTransport, MESSAGE } from './batching-transport';

type Format = Logform.Format;

export type LogFormat = 'kv' | 'json';

export interface LoggerOptions {
  level?: string;
  /** `kv`: one `key=value` line per event (default); `json`: one JSON object per line. */
  format?: LogFormat;
  /** Where lines go (standard output by default), in batches at most 20 ms late. Tests pass a stream to read them. */
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

/** Field names seen, with their verdict: the names are the code's own few, and each line checks every one. */
const fieldVerdicts = new Map<string, boolean>();
const MAX_REMEMBERED_FIELDS = 1024;

function isForbiddenField(key: string): boolean {
  let forbidden = fieldVerdicts.get(key);
  if (forbidden === undefined) {
    forbidden = FORBIDDEN_FIELDS.has(key.toLowerCase());
    if (fieldVerdicts.size < MAX_REMEMBERED_FIELDS) fieldVerdicts.set(key, forbidden);
  }
  return forbidden;
}

/**
 * The request a line is about, passed by the caller: the gateway keeps no ambient request context
 * (AsyncLocalStorage's promise hooks cost 14% of its CPU per call, docs/adr/0005-gateway-hot-path.md).
 * Held on the line's info under a symbol, so no format writes it as a field.
 */
const CORRELATION = Symbol('correlation');

/** The ids of the request a line is about (a `RequestContext` is one). */
export interface LogCorrelation {
  readonly guid: string;
  readonly requestId: string;
}

type LineInfo = Logform.TransformableInfo & { [CORRELATION]?: LogCorrelation };

/** Adds the line's request guid and requestId, and drops forbidden fields (the JSON format's first step). */
const correlation = winston.format((info: LineInfo) => {
  for (const key of Object.keys(info)) if (isForbiddenField(key)) delete info[key];
  const context = info[CORRELATION];
  if (context) {
    info.guid ??= context.guid;
    info.requestId ??= context.requestId;
  }
  return info;
});

/** One formatted line, or `undefined` when a format drops it. */
type LineFormat = (level: string, event: string, fields: LogFields, correlation: LogCorrelation | undefined) => string | undefined;

/**
 * The default `key=value` line in one pass over the fields: time, level, event, the fields but the
 * forbidden ones, then the line's request guid and requestId. Built straight from the call's arguments,
 * without a winston info object: the gateway logs three lines per call (docs/adr/0005-gateway-hot-path.md).
 */
const keyValueLine: LineFormat = (level, event, fields, correlation) => {
  let line = `${timestamp()} level=${level} event=${event}`;
  for (const key of Object.keys(fields)) {
    if (isForbiddenField(key)) continue;
    const value = fields[key];
    if (value !== undefined) line += ` ${key}=${quote(value)}`;
  }
  if (correlation) {
    // Correlation ids are held to an inert alphabet where they are read (correlation-headers.ts).
    if (fields.guid === undefined) line += ` guid=${correlation.guid}`;
    if (fields.requestId === undefined) line += ` requestId=${correlation.requestId}`;
  }
  return line;
};

/** winston's JSON pipeline (with our correlation and control escapes) over the call's fields as its info. */
function winstonJsonLine(): LineFormat {
  const format = winston.format.combine(correlation(), winston.format.timestamp(), winston.format.json(), jsonControlEscapes);
  return (level, event, fields, requestIds) => {
    const info = fields as LineInfo;
    info.level = level;
    info.message = event;
    if (requestIds) info[CORRELATION] = requestIds;
    const formatted = format.transform(info, format.options);
    return typeof formatted === 'object' ? String(formatted[MESSAGE]) : undefined;
  };
}

/**
 * The time of a line, as `Date.toISOString` writes it, made once per millisecond (a busy gateway logs
 * several lines in each): the date and time up to the second once per second, the milliseconds appended.
 */
let stampedAt = Number.NaN;
let stamp = '';
let secondStartedAt = Number.NaN;
let secondPrefix = '';
function timestamp(): string {
  const now = Date.now();
  if (now === stampedAt) return stamp;
  const millis = now % 1000;
  if (now - millis !== secondStartedAt) {
    secondStartedAt = now - millis;
    secondPrefix = new Date(secondStartedAt).toISOString().slice(0, 20); // "2026-12-01T18:30:44."
  }
  stampedAt = now;
  stamp = `${secondPrefix}${millis < 10 ? '00' : millis < 100 ? '0' : ''}${millis}Z`;
  return stamp;
}

/**
 * A value as it is written: bare when that is unambiguous, else as a JSON string. A control character makes
 * a value quoted, so the one regular expression that already runs for every value keeps ESC, BEL and NUL
 * from reaching a terminal raw (JSON escapes C0; DEL and C1 are escaped after it).
 */
function quote(value: unknown): string {
  if (typeof value === 'number') return String(value);
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  // eslint-disable-next-line no-control-regex -- control characters must not be written bare
  if (/^[^\s="\u0000-\u001f\u007f-\u009f]*$/.test(text) && text !== '') return text;
  return withoutRawDelOrC1(JSON.stringify(text));
}

/** JSON escapes C0 control characters but writes DEL and C1 (such as the one-byte CSI, U+009B) as they are. */
function withoutRawDelOrC1(json: string): string {
  return /[\u007f-\u009f]/.test(json) ? escapeControlCharacters(json) : json;
}

/** The JSON format's last step: the line keeps no raw DEL or C1 character (its `\uXXXX` escapes are valid JSON). */
const jsonControlEscapes: Format = {
  transform(info) {
    const line = info[MESSAGE];
    if (typeof line === 'string') info[MESSAGE] = withoutRawDelOrC1(line);
    return info;
  },
};

/** What one line says besides its event: never bodies, credentials or employee ids (SPEC G3). */
export type LogFields = Record<string, unknown>;

/**
 * The one logger of a process: events are names (`mcp_http_request_received`), details are fields. A line
 * about one request is given that request (`correlation`), whose guid and requestId it then carries.
 */
export interface Logger {
  debug(event: string, fields: LogFields, correlation?: LogCorrelation): void;
  info(event: string, fields: LogFields, correlation?: LogCorrelation): void;
  warn(event: string, fields: LogFields, correlation?: LogCorrelation): void;
  error(event: string, fields: LogFields, correlation?: LogCorrelation): void;
  /** Writes the lines still batched, at once: call it before `process.exit`, which would drop them. */
  flush(): void;
}

export function createLogger(options: LoggerOptions = {}): Logger {
  const level = options.level ?? 'info';
  const format = options.format === 'json' ? winstonJsonLine() : keyValueLine;
  return new EventLogger(format, severityOf(level), new BatchingStreamTransport(options.stream ?? process.stdout));
}

/** winston's npm levels: `error` 0 ... `silly` 6; a line is written when its level is at most the configured one. */
const LEVELS: Readonly<Record<string, number>> = winston.config.npm.levels;

function severityOf(level: string): number {
  const severity = LEVELS[level];
  if (severity === undefined) throw new Error(`unknown log level ${level}; use one of ${Object.keys(LEVELS).join(', ')}`);
  return severity;
}

/**
 * Lines are formatted by `keyValueLine` or winston's JSON pipeline and handed to the batching transport
 * directly. winston's Logger object is not on the way: it is a Transform stream, and pushing every line
 * through its stream machinery and the pipe to the transport cost about 8 us per line, three lines per
 * call, the largest single share of the gateway's CPU per call beyond the minimal proxy
 * (docs/adr/0005-gateway-hot-path.md, "Sixth round"). Levels are winston's npm levels. The JSON format
 * takes the fields object as the line's info (`info(message, meta)` would copy it): every call site
 * passes a fresh literal.
 */
class EventLogger implements Logger {
  constructor(
    private readonly format: LineFormat,
    private readonly severity: number,
    private readonly transport: BatchingStreamTransport,
  ) {}

  flush(): void {
    this.transport.flush();
  }

  debug(event: string, fields: LogFields, correlation?: LogCorrelation): void {
    this.log('debug', event, fields, correlation);
  }

  info(event: string, fields: LogFields, correlation?: LogCorrelation): void {
    this.log('info', event, fields, correlation);
  }

  warn(event: string, fields: LogFields, correlation?: LogCorrelation): void {
    this.log('warn', event, fields, correlation);
  }

  error(event: string, fields: LogFields, correlation?: LogCorrelation): void {
    this.log('error', event, fields, correlation);
  }

  private log(level: string, event: string, fields: LogFields, correlation: LogCorrelation | undefined): void {
    if (LEVELS[level] > this.severity) return;
    const line = this.format(level, event, fields, correlation);
    if (line !== undefined) this.transport.append(line);
  }
}
