import { McpMethod, McpNotification } from '@toolmesh/protocol';
import type { CatalogueStatus } from '@toolmesh/registry';
import { Counter, Gauge, Registry } from 'prom-client';

import { AccumulatedHistogram, type HistogramSeries } from './accumulated-histogram';

/** What the metrics read at scrape time, from the parts that own the state. */
export interface MetricsSources {
  catalogue(): CatalogueStatus;
  openStreams(): number;
  /** With Redis configured: false during an outage, undefined before its first command said either way. */
  redisAvailable?(): boolean | undefined;
}

interface RequestSeries {
  readonly labels: Readonly<Record<'method' | 'era' | 'outcome', string>>;
  count: number;
  readonly seconds: HistogramSeries;
}

/** How a request ended, as the requests counter tells them apart. */
export type RequestOutcome = 'result' | 'error' | 'accepted' | 'stream';

const KNOWN_METHODS: ReadonlySet<string> = new Set([...Object.values(McpMethod), ...Object.values(McpNotification)]);
/** Seconds; from a fast in-memory tools/list to a tool call near its timeout. */
const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/**
 * The gateway's Prometheus metrics (SPEC G23), served on the management port at `/metrics`. No label
 * carries an argument, an id or an unbounded value: methods outside MCP's are `(unknown)`, tool names are
 * bounded by the catalogue, bundles by the configuration. What a request records is plain additions:
 * the request counts are handed to prom-client when it is scraped and the histograms are our own
 * (`AccumulatedHistogram`), since prom-client's per-observation work was a tenth of the CPU per call.
 */
export class GatewayMetrics {
  readonly registry = new Registry();
  private readonly requestSeconds = new AccumulatedHistogram(
    'toolmesh_mcp_request_duration_seconds',
    "Time from a request's arrival to its answer",
    ['method', 'era'],
    BUCKETS,
  );
  private readonly toolCallSeconds = new AccumulatedHistogram(
    'toolmesh_tool_call_duration_seconds',
    'Time of the one POST to the tool service',
    ['tool'],
    BUCKETS,
  );
  /**
   * Per method, era and outcome: its count, and the duration series of its method and era. Nested maps
   * of the three labels rather than one key built per request, which was a new string to hash on every call.
   */
  private readonly requestSeries = new Map<string, Map<string, Map<RequestOutcome, RequestSeries>>>();
  private readonly toolServiceErrorCounts = new Map<string, number>();
  private readonly authRefusals = new Counter({
    name: 'toolmesh_auth_refusals_total',
    help: 'Requests refused for want of a valid access token (by reason) or of scope (insufficient_scope)',
    labelNames: ['reason'],
    registers: [],
  });
  private readonly rateLimitedCalls = new Counter({
    name: 'toolmesh_rate_limited_calls_total',
    help: 'Tool calls refused with 429, by the limit that was spent (caller or tool)',
    labelNames: ['limit'],
    registers: [],
  });

  constructor(sources: MetricsSources) {
    const { registry, requestSeries, toolServiceErrorCounts } = this;
    new Counter({
      name: 'toolmesh_mcp_requests_total',
      help: 'MCP requests by method, era and outcome',
      labelNames: ['method', 'era', 'outcome'],
      registers: [registry],
      collect() {
        this.reset();
        for (const eras of requestSeries.values())
          for (const outcomes of eras.values()) for (const series of outcomes.values()) this.inc(series.labels, series.count);
      },
    });
    registry.registerMetric(this.requestSeconds.asRegistered());
    registry.registerMetric(this.authRefusals);
    registry.registerMetric(this.rateLimitedCalls);
    registry.registerMetric(this.toolCallSeconds.asRegistered());
    new Counter({
      name: 'toolmesh_tool_service_errors_total',
      help: 'Tool calls that failed at the tool service, by kind',
      labelNames: ['kind'],
      registers: [registry],
      collect() {
        this.reset();
        for (const [kind, count] of toolServiceErrorCounts) this.inc({ kind }, count);
      },
    });
    new Gauge({
      name: 'toolmesh_catalogue_age_seconds',
      help: "Seconds since a bundle's served tools were fetched from its tool service",
      labelNames: ['bundle'],
      registers: [registry],
      collect() {
        this.reset();
        for (const bundle of sources.catalogue().bundles)
          if (bundle.ageSeconds !== null) this.set({ bundle: bundle.bundle }, bundle.ageSeconds);
      },
    });
    new Gauge({
      name: 'toolmesh_catalogue_tools',
      help: 'Tools a bundle serves',
      labelNames: ['bundle'],
      registers: [registry],
      collect() {
        this.reset();
        for (const bundle of sources.catalogue().bundles) this.set({ bundle: bundle.bundle }, bundle.toolCount);
      },
    });
    new Gauge({
      name: 'toolmesh_catalogue_last_refresh_ok',
      help: "Whether a bundle's last refresh succeeded (1) or failed (0); absent before the first",
      labelNames: ['bundle'],
      registers: [registry],
      collect() {
        this.reset();
        for (const bundle of sources.catalogue().bundles) {
          if (bundle.lastAttempt === null) continue;
          this.set(
            { bundle: bundle.bundle },
            bundle.lastError === null || (bundle.lastSuccess !== null && bundle.lastSuccess >= bundle.lastError.at) ? 1 : 0,
          );
        }
      },
    });
    new Gauge({
      name: 'toolmesh_catalogue_ready',
      help: 'Readiness: 1 when a usable catalogue is served',
      registers: [registry],
      collect() {
        this.set(sources.catalogue().ready ? 1 : 0);
      },
    });
    new Gauge({
      name: 'toolmesh_notification_streams_open',
      help: 'Open change-notification streams of both eras',
      registers: [registry],
      collect() {
        this.set(sources.openStreams());
      },
    });
    const { redisAvailable } = sources;
    if (redisAvailable) {
      new Gauge({
        name: 'toolmesh_redis_available',
        help: 'Redis reachable (1) or in an outage (0); only with Redis configured',
        registers: [registry],
        collect() {
          this.set(redisAvailable() === false ? 0 : 1);
        },
      });
    }
  }

  /** One answered (or accepted) request, `receivedAt` in `performance.now()` milliseconds. */
  request(method: string, era: string, outcome: RequestOutcome, receivedAt: number): void {
    const name = KNOWN_METHODS.has(method) ? method : '(unknown)';
    let eras = this.requestSeries.get(name);
    if (eras === undefined) this.requestSeries.set(name, (eras = new Map()));
    let outcomes = eras.get(era);
    if (outcomes === undefined) eras.set(era, (outcomes = new Map()));
    let series = outcomes.get(outcome);
    if (series === undefined)
      outcomes.set(
        outcome,
        (series = { labels: { method: name, era, outcome }, count: 0, seconds: this.requestSeconds.seriesOf(name, era) }),
      );
    series.count += 1;
    series.seconds.observe((performance.now() - receivedAt) / 1000);
  }

  /** One POST to a tool service; `failure` is its kind when it did not answer 2xx (timeout, network, http_5xx, ...). */
  toolCall(tool: string, durationMs: number, failure: string | undefined): void {
    this.toolCallSeconds.seriesOf(tool).observe(durationMs / 1000);
    if (failure !== undefined) this.toolServiceErrorCounts.set(failure, (this.toolServiceErrorCounts.get(failure) ?? 0) + 1);
  }

  /** A request refused by authentication (`reason`: a short code, never anything of the token) or authorization. */
  authRefused(reason: string): void {
    this.authRefusals.inc({ reason });
  }

  /** A tool call refused by a rate limit. */
  rateLimited(limit: string): void {
    this.rateLimitedCalls.inc({ limit });
  }

  text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
