import type { Logger } from '@toolmesh/transport-http/server';

/** A warning about dropped events is logged at most this often. */
const DROP_WARNING_MILLIS = 10_000;

/**
 * The events one sink of the audit trail dropped (its buffer full, its file or collector failing), counted
 * and told in a warning at most every 10 s that names the sink and the setting that bounds it: a sink never
 * makes a call wait, so what it cannot take is dropped and said.
 */
export class AuditDrops {
  private sinceWarning = 0;
  private lastWarning = 0;
  /** Events dropped since start. */
  total = 0;

  constructor(
    private readonly sink: 'file' | 'otelLogs',
    private readonly setting: string,
    private readonly logger: Logger,
  ) {}

  /** Counts `count` dropped events, `reason` a short code (`buffer_full`, an errno, `export_failed`). */
  count(reason: string, count = 1): void {
    this.total += count;
    this.sinceWarning += count;
    const now = Date.now();
    if (now - this.lastWarning < DROP_WARNING_MILLIS) return;
    this.logger.warn('audit_events_dropped', {
      dropped: this.sinceWarning,
      total: this.total,
      reason,
      setting: this.setting,
      sink: this.sink,
    });
    this.lastWarning = now;
    this.sinceWarning = 0;
  }
}
