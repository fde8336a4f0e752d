import type { SpanContext } from '@opentelemetry/api';
import type { ParsedMessage } from '@toolmesh/protocol';
import { serializedByteLength } from '@toolmesh/protocol';
import type { AuthenticationRefusal, DispatchOutcome, Logger, McpDispatcher, RequestContext } from '@toolmesh/transport-http/server';

import type { OtlpExport } from '../call/otlp-export';
import { AUDIT_DEFAULTS, type AuditSettings } from '../config/audit-settings';
import { type AuditDecision, AUDITED_METHODS, type AuditEvent, type AuditNotice, type AuditOutcome } from './audit-event';
import { AuditFile } from './audit-file';
import { AuditOtelLogs } from './audit-otel-logs';
import { AuditRecord, withAuditRecord } from './audit-record';
import { isoTimeNow } from './audit-time';
import { CallerHash } from './caller-hash';

/** Where an audited request's names come from: the gateway's own lookups, never the caller's text as it is. */
export interface AuditNames {
  /** The MCP path a request came in on. */
  endpoint(context: RequestContext): string;
  /**
   * The tool a request to `context`'s endpoint names, as the catalogue knows it: its catalogue name (an alias
   * a curated endpoint shows is resolved) and its bundle (none: the gateway's own, `search_tools`); undefined
   * when that endpoint serves no tool of that name.
   */
  tool(name: string, context: RequestContext): AuditedTool | undefined;
}

/** A tool as the audit trail writes it. */
export interface AuditedTool {
  readonly name: string;
  readonly bundle?: string;
}

/**
 * The audit trail (issue 46; docs/gateway.md, "Audit trail"): one JSON line per `tools/call`,
 * `resources/read` and `prompts/get` (`search_tools` is a `tools/call`), refused ones included, written to
 * its own file, and as an OpenTelemetry log record where OpenTelemetry is configured (`audit.otelLogs`).
 * `audited` wraps the dispatcher: an audited request carries an `AuditRecord` down the call path, where
 * each check adds its decision (`auditOf(context)?.decide(...)`), and its event is written once its
 * answer is ready. Off, none of it is built: no record, no wrapper.
 */
export class AuditTrail {
  private constructor(
    private readonly file: AuditFile,
    private readonly names: AuditNames,
    private readonly callers: CallerHash | undefined,
    private readonly otel: AuditOtelLogs | undefined,
  ) {}

  /**
   * The trail `audit` asks for, its key read and its file open, or undefined when it is off; a problem with
   * either stops the start (gateway.audit_unavailable). Its events go to `otlp` too, when OpenTelemetry is
   * configured and `audit.otelLogs` is not false.
   */
  static open(
    audit: AuditSettings | undefined,
    names: AuditNames,
    env: NodeJS.ProcessEnv,
    logger: Logger,
    otlp?: OtlpExport,
  ): AuditTrail | undefined {
    if (audit === undefined || !audit.enabled || audit.file === undefined) return undefined;
    const callers = audit.subjectKey && CallerHash.fromSource(audit.subjectKey, env);
    const { otelLogs = AUDIT_DEFAULTS.otelLogs, maxQueuedOtelEvents = AUDIT_DEFAULTS.maxQueuedOtelEvents } = audit;
    const otel = otlp && otelLogs ? new AuditOtelLogs(otlp, maxQueuedOtelEvents, logger) : undefined;
    return new AuditTrail(AuditFile.open(audit.file, audit.maxBufferedBytes, logger), names, callers, otel);
  }

  /** The dispatcher with every audited request recorded; the others pass as they are. */
  audited(dispatch: McpDispatcher): McpDispatcher {
    return (message, context) => {
      if (message.kind !== 'request' || !AUDITED_METHODS.has(message.message.method)) return dispatch(message, context);
      const record = new AuditRecord();
      const answered = dispatch(message, withAuditRecord(context, record));
      answered.then(
        (outcome) => this.write(requestEvent(message, context, record, this, outcomeOf(outcome, record), outcome), record.spanContext),
        () => this.write(requestEvent(message, context, record, this, { kind: 'error', status: 500, code: -32603 }), record.spanContext),
      );
      return answered;
    };
  }

  /** A request the authenticator refused at the door (401, 403), before its body was read. */
  refusedAtTheDoor(refusal: AuthenticationRefusal, context: RequestContext): void {
    const method = doorMethod(context);
    const decision: AuditDecision = { stage: 'authorization', outcome: 'deny', reason: refusal.reason };
    const named = method === 'tools/call' ? this.toolNamed(headerValue(context, 'mcp-name'), context) : undefined;
    this.write({
      type: 'request',
      time: isoTimeNow(),
      guid: context.guid,
      requestId: context.requestId,
      endpoint: this.names.endpoint(context),
      method,
      bundle: named?.bundle,
      tool: named?.name,
      decisions: [decision],
      outcome: { kind: 'refused', status: refusal.status },
      durationMs: durationOf(context),
      bytesIn: bytesIn(context),
    });
  }

  /** An event of the gateway's own, not of a request: a tool's changed definition (policy `warn`). */
  notice(notice: AuditNotice): void {
    this.write({ type: 'notice', time: isoTimeNow(), ...notice });
  }

  /** Events dropped since start by either sink (a full buffer, a failed file or export). */
  get dropped(): number {
    return this.file.dropped + (this.otel?.dropped ?? 0);
  }

  async close(): Promise<void> {
    await Promise.all([this.file.close(), this.otel?.close()]);
  }

  /** The tool and its bundle, when the endpoint serves a tool of that name (else none: the name is the caller's text). */
  toolNamed(name: unknown, context: RequestContext): AuditedTool | undefined {
    return typeof name === 'string' ? this.names.tool(name, context) : undefined;
  }

  /** A verified subject's keyed hash; none without a key (no authentication). */
  callerHash(subject: string): string | undefined {
    return this.callers?.of(subject);
  }

  endpointOf(context: RequestContext): string {
    return this.names.endpoint(context);
  }

  private write(event: AuditEvent, spanContext?: SpanContext): void {
    const line = JSON.stringify(event);
    this.file.write(line);
    this.otel?.emit(event, line, spanContext);
  }
}

/**
 * The event of an answered request; `outcome` as the answer says it. One object literal of one shape,
 * whose absent members are `undefined` (which JSON leaves out), rather than object spreads.
 */
function requestEvent(
  message: ParsedMessage & { kind: 'request' },
  context: RequestContext,
  record: AuditRecord,
  trail: AuditTrail,
  outcome: AuditOutcome,
  answer?: DispatchOutcome,
): AuditEvent {
  const { method, params = {} } = message.message;
  const { name, uri } = params as Record<string, unknown>;
  const tool = method === 'tools/call' ? trail.toolNamed(name, context) : undefined;
  const { caller } = context;
  return {
    type: 'request',
    time: isoTimeNow(),
    guid: context.guid,
    requestId: context.requestId,
    endpoint: trail.endpointOf(context),
    method,
    bundle: tool === undefined ? record.feature?.bundle : tool.bundle,
    tool: tool?.name,
    prompt: method === 'prompts/get' ? record.feature?.prompt : undefined,
    resource: method === 'resources/read' ? uriScheme(uri) : undefined,
    caller: caller && trail.callerHash(caller.subject),
    clientId: caller && clientIdOf(caller.claims),
    decisions: record.decisions,
    outcome,
    durationMs: durationOf(context),
    bytesIn: bytesIn(context),
    bytesOut: answer !== undefined && 'json' in answer ? serializedByteLength(answer.json) : undefined,
  };
}

/** `file:` of `file:///etc/x`: a scheme is letters, digits, `+`, `-`, `.` (RFC 3986); anything else is not written. */
function uriScheme(uri: unknown): string | undefined {
  if (typeof uri !== 'string') return undefined;
  const match = /^([A-Za-z][A-Za-z0-9+.-]{0,31}):/.exec(uri);
  return match === null ? undefined : `${match[1].toLowerCase()}:`;
}

/** The outcome an answer says: its status, a JSON-RPC error's code, or what the record was told (a tool error, an input round). */
function outcomeOf(answer: DispatchOutcome | undefined, record: AuditRecord): AuditOutcome {
  if (answer === undefined) return { kind: 'result', status: 202 };
  if (!('json' in answer)) return { kind: 'stream', status: 200 };
  if (answer.isError) return { kind: 'error', status: answer.status, ...errorCode(answer.json) };
  // A check that denied and still answered with a result answered with an `isError` one (search_tools' arguments, an interceptor).
  if (record.toolError || record.decisions.some((decision) => decision.outcome === 'deny'))
    return { kind: 'toolError', status: answer.status };
  return { kind: record.inputRequired ? 'inputRequired' : 'result', status: answer.status };
}

/**
 * The code of a serialized JSON-RPC error: `{"jsonrpc":"2.0","id":...,"error":{"code":-32602,...`. An id the
 * caller chose cannot fake it: in a string id the quotes of `"error":{"code":` would be escaped.
 */
function errorCode(json: string | readonly Uint8Array[] | unknown): { code?: number } {
  if (typeof json !== 'string') return {};
  const match = /"error":\{"code":(-?\d{1,9})/.exec(json);
  return match === null ? {} : { code: Number(match[1]) };
}

/** A 2026 request names its method in `Mcp-Method`; only an audited method is written (the header is the caller's text). */
function doorMethod(context: RequestContext): string | undefined {
  const method = headerValue(context, 'mcp-method');
  return method !== undefined && AUDITED_METHODS.has(method) ? method : undefined;
}

function headerValue(context: RequestContext, name: string): string | undefined {
  const value = context.headers?.[name];
  return typeof value === 'string' ? value : undefined;
}

function durationOf(context: RequestContext): number {
  return Math.round((performance.now() - context.receivedAt) * 10) / 10;
}

function bytesIn(context: RequestContext): number | undefined {
  const length = Number(context.headers?.['content-length']);
  return Number.isSafeInteger(length) && length >= 0 ? length : undefined;
}

/** The verified token's `client_id`, else `azp`. */
function clientIdOf(claims: Readonly<Record<string, unknown>>): string | undefined {
  return stringClaim(claims.client_id) ?? stringClaim(claims.azp);
}

function stringClaim(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 && value.length <= 256 ? value : undefined;
}
