import { ROOT_CONTEXT, type SpanContext, trace } from '@opentelemetry/api';
import { type AnyValueMap, type Logger as OtelLogger, SeverityNumber } from '@opentelemetry/api-logs';
import { type ExportResult, ExportResultCode } from '@opentelemetry/core';
import { OTLPLogExporter } from '@opentelemetry/exporter-logs-otlp-http';
import { BatchLogRecordProcessor, LoggerProvider, type LogRecordExporter, type ReadableLogRecord } from '@opentelemetry/sdk-logs';
import type { Logger } from '@toolmesh/transport-http/server';

import type { OtlpExport } from '../call/otlp-export';
import { AuditDrops } from './audit-drops';
import type { AuditEvent } from './audit-event';

/** Records are exported together at most this long after they were emitted: one POST for a burst of calls. */
const EXPORT_DELAY_MILLIS = 1_000;
/** At most this many records per POST to the collector (the SDK's default). */
const MAX_EXPORT_BATCH = 512;

/**
 * The audit trail's OpenTelemetry logs sink (issue 46, ADR 0030): each event the file gets is also one log
 * record, exported over OTLP/HTTP to the collector the traces go to. Its body is the file's line as a map
 * (the same fields, so the same guarantee: no body, argument value, credential or subject), its event name
 * `toolmesh.audit.request` or `toolmesh.audit.notice`, a severity from the outcome, and the trace and span
 * ids of the call's request span when it was traced. Records are batched by the SDK's processor and never
 * make a call wait: past `audit.maxQueuedOtelEvents` not yet exported, a record is dropped and counted, as
 * are the records of an export that failed (a collector down), like the file's drops.
 */
export class AuditOtelLogs {
  private emitted = 0;
  private settled = 0;
  private readonly drops: AuditDrops;
  private readonly provider: LoggerProvider;
  private readonly otel: OtelLogger;

  constructor(
    otlp: OtlpExport,
    private readonly maxQueued: number,
    logger: Logger,
  ) {
    this.drops = new AuditDrops('otelLogs', 'audit.maxQueuedOtelEvents', logger);
    const exporter = new SettledExporter(new OTLPLogExporter({ url: otlp.url('logs') }), (count, failed) => this.settledOf(count, failed));
    this.provider = new LoggerProvider({
      resource: otlp.resource,
      processors: [
        // The SDK's own queue never fills: what is not yet exported is bounded here, where a drop is counted.
        new BatchLogRecordProcessor(exporter, {
          maxQueueSize: maxQueued,
          maxExportBatchSize: Math.min(MAX_EXPORT_BATCH, maxQueued),
          scheduledDelayMillis: EXPORT_DELAY_MILLIS,
        }),
      ],
    });
    this.otel = this.provider.getLogger('toolmesh-gateway.audit', otlp.serviceVersion);
  }

  /** Records not exported since start: the queue was full or their export failed. */
  get dropped(): number {
    return this.drops.total;
  }

  /** Emits `event`, whose file line is `line`, as a log record of the call `spanContext` names; never waits, never throws. */
  emit(event: AuditEvent, line: string, spanContext: SpanContext | undefined): void {
    if (this.emitted - this.settled >= this.maxQueued) {
      this.drops.count('queue_full');
      return;
    }
    this.emitted += 1;
    const [severityNumber, severityText] = severityOf(event);
    this.otel.emit({
      eventName: `toolmesh.audit.${event.type}`,
      severityNumber,
      severityText,
      // The line parsed back, not the event: the same members as the file, none of the event's undefined ones.
      body: JSON.parse(line) as AnyValueMap,
      ...(spanContext && { context: trace.setSpanContext(ROOT_CONTEXT, spanContext) }),
    });
  }

  /** Exports what is batched and stops (at shutdown); a collector down costs at most the exporter's timeout. */
  close(): Promise<void> {
    return this.provider.shutdown().catch(() => undefined);
  }

  private settledOf(count: number, failed: boolean): void {
    this.settled += count;
    if (failed) this.drops.count('export_failed', count);
  }
}

/** INFO for a request answered, WARN for one refused or failed by the caller's side and for a notice, ERROR for the gateway's own failure. */
function severityOf(event: AuditEvent): readonly [SeverityNumber, string] {
  if (event.type === 'notice') return WARN;
  const { kind, status } = event.outcome;
  if (kind === 'result' || kind === 'inputRequired' || kind === 'stream') return INFO;
  return status >= 500 ? ERROR : WARN;
}

const INFO = [SeverityNumber.INFO, 'INFO'] as const;
const WARN = [SeverityNumber.WARN, 'WARN'] as const;
const ERROR = [SeverityNumber.ERROR, 'ERROR'] as const;

/** The OTLP exporter, telling how many records each export settled and whether it failed. */
class SettledExporter implements LogRecordExporter {
  constructor(
    private readonly exporter: LogRecordExporter,
    private readonly settled: (count: number, failed: boolean) => void,
  ) {}

  export(records: ReadableLogRecord[], done: (result: ExportResult) => void): void {
    this.exporter.export(records, (result) => {
      this.settled(records.length, result.code !== ExportResultCode.SUCCESS);
      done(result);
    });
  }

  shutdown(): Promise<void> {
    return this.exporter.shutdown();
  }
}
