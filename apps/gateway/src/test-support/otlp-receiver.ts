import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A span as OTLP/HTTP JSON carries it. */
interface ExportedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
}

/** A log record as OTLP/HTTP JSON carries it; `body` and attribute values are OTLP `AnyValue`s (`plainValue` reads them). */
interface ExportedLogRecord {
  eventName?: string;
  severityNumber?: number;
  severityText?: string;
  body?: AnyValue;
  traceId?: string;
  spanId?: string;
}

/** OTLP's `AnyValue` in its JSON form. */
interface AnyValue {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: number | string;
  doubleValue?: number;
  arrayValue?: { values?: AnyValue[] };
  kvlistValue?: { values?: Array<{ key: string; value: AnyValue }> };
}

/** A collector's stand-in: an OTLP/HTTP (JSON) receiver on loopback keeping the spans and log records exported to it. */
export interface OtlpReceiver {
  /** The base URL, as `OTEL_EXPORTER_OTLP_ENDPOINT` takes it. */
  readonly url: string;
  readonly spans: ExportedSpan[];
  readonly logRecords: ExportedLogRecord[];
  /** Every request body received, as sent: what a test greps for what must never be exported. */
  received(): string;
  close(): Promise<void>;
}

interface ExportRequest {
  resourceSpans?: Array<{ scopeSpans: Array<{ spans: ExportedSpan[] }> }>;
  resourceLogs?: Array<{ scopeLogs: Array<{ logRecords: ExportedLogRecord[] }> }>;
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ExportedSpan[] = [];
  const logRecords: ExportedLogRecord[] = [];
  let received = '';
  const server = createServer((req, res) => {
    let body = '';
    req
      .on('data', (chunk) => (body += chunk))
      .on('end', () => {
        received += `${body}\n`;
        const document = JSON.parse(body) as ExportRequest;
        if (req.url === '/v1/traces')
          for (const resource of document.resourceSpans ?? []) for (const scope of resource.scopeSpans) spans.push(...scope.spans);
        if (req.url === '/v1/logs')
          for (const resource of document.resourceLogs ?? []) for (const scope of resource.scopeLogs) logRecords.push(...scope.logRecords);
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    logRecords,
    received: () => received,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** An OTLP `AnyValue` as the plain JSON value it carries. */
export function plainValue(value: AnyValue | undefined): unknown {
  if (value === undefined) return undefined;
  if (value.kvlistValue !== undefined)
    return Object.fromEntries((value.kvlistValue.values ?? []).map(({ key, value: member }) => [key, plainValue(member)]));
  if (value.arrayValue !== undefined) return (value.arrayValue.values ?? []).map(plainValue);
  if (value.intValue !== undefined) return Number(value.intValue);
  return value.stringValue ?? value.boolValue ?? value.doubleValue;
}
