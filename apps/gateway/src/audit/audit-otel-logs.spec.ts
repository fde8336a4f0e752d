import { Writable } from 'node:stream';

import { freePort } from '@toolmesh/test-peers/free-port';
import { createLogger } from '@toolmesh/transport-http/server';

import { type OtlpExport, otlpExportOf } from '../call/otlp-export';
import type { AuditEvent } from './audit-event';
import { AuditOtelLogs } from './audit-otel-logs';

const notice: AuditEvent = { type: 'notice', time: new Date().toISOString(), decision: { stage: 'definition', outcome: 'allow' } };

describe('AuditOtelLogs', () => {
  it('never makes a caller wait: past maxQueuedOtelEvents a record is dropped and counted, as are those a collector down refused', async () => {
    let logs = '';
    const logger = createLogger({
      level: 'warn',
      format: 'kv',
      stream: new Writable({ write: (chunk: Buffer, _encoding, done) => done(void (logs += chunk.toString('utf8'))) }),
    });
    // A port nobody listens on: the collector is down, and refuses each export at once.
    const otlp = otlpExportOf({ OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${await freePort()}` }, '0.0.0');
    expect(otlp?.url('logs')).toMatch(/\/v1\/logs$/);
    const sink = new AuditOtelLogs(otlp as OtlpExport, 64, logger);
    for (let n = 0; n < 70; n += 1) sink.emit(notice, JSON.stringify(notice), undefined);
    expect(sink.dropped).toBe(6);
    logger.flush();
    expect(logs).toContain(
      'event=audit_events_dropped dropped=1 total=1 reason=queue_full setting=audit.maxQueuedOtelEvents sink=otelLogs',
    );
    await sink.close(); // exports the 64 queued, which the collector, down, never gets
    expect(sink.dropped).toBe(70);
  });
});
