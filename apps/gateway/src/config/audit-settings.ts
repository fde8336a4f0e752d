import type { CredentialSource } from './gateway-config';

/** The audit trail (issue 46; docs/gateway.md, "Audit trail"); the section absent, it is off. */
export interface AuditSettings {
  /** Off keeps the section but writes nothing (default: on once the section is given). */
  enabled: boolean;
  /** The JSON-lines file the events are appended to, apart from the boundary logs. Required when enabled. */
  file?: string;
  /** The operator's key of the callers' hashes (HMAC-SHA256 of the verified subject); required with `auth`. */
  subjectKey?: CredentialSource;
  /** Events waiting to be written, at most this many bytes; past it an event is dropped and counted. */
  maxBufferedBytes: number;
  /** Each event also as an OpenTelemetry log record, where OpenTelemetry is configured (`OTEL_EXPORTER_OTLP_ENDPOINT`); absent: true. */
  otelLogs?: boolean;
  /** Log records not yet exported, at most this many; past it a record is dropped and counted. Absent: `AUDIT_DEFAULTS`'. */
  maxQueuedOtelEvents?: number;
}

/** What an `audit` section leaves out. */
export const AUDIT_DEFAULTS: Required<Omit<AuditSettings, 'file' | 'subjectKey'>> = {
  enabled: true,
  maxBufferedBytes: 4 * 1024 * 1024,
  otelLogs: true,
  maxQueuedOtelEvents: 2_048,
};

/** The `audit` section's JSON Schema; what it cannot say is `auditProblem`'s. */
export const auditSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['enabled', 'maxBufferedBytes'],
  properties: {
    enabled: { type: 'boolean' },
    file: { type: 'string', minLength: 1 },
    subjectKey: {
      type: 'object',
      additionalProperties: false,
      properties: { env: { type: 'string', minLength: 1 }, file: { type: 'string', minLength: 1 } },
      oneOf: [{ required: ['env'] }, { required: ['file'] }],
    },
    maxBufferedBytes: { type: 'integer', minimum: 65_536, maximum: 1_073_741_824 },
    otelLogs: { type: 'boolean' },
    maxQueuedOtelEvents: { type: 'integer', minimum: 64, maximum: 1_048_576 },
  },
} as const;

/** What is wrong with an enabled trail's settings, if anything: a file to write, and a key when callers are authenticated. */
export function auditProblem(audit: AuditSettings | undefined, authOn: boolean): string | undefined {
  if (audit === undefined || !audit.enabled) return undefined;
  if (audit.file === undefined) return 'audit.file: name the JSON-lines file the audit events go to (audit.enabled is true)';
  if (authOn && audit.subjectKey === undefined)
    return 'audit.subjectKey: with auth the trail names callers by a keyed hash of their subject; give the key as { env: NAME } or { file: PATH } (at least 32 characters)';
  return undefined;
}
