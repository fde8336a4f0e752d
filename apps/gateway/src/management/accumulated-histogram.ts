import type { Metric } from 'prom-client';

/** One label set's observations: cumulative buckets are computed at scrape time, not per observation. */
export class HistogramSeries {
  /** Observations per bucket (not cumulative); the last slot is `+Inf`. */
  private readonly counts: number[];
  sum = 0;
  count = 0;

  constructor(
    readonly labels: Readonly<Record<string, string>>,
    private readonly upperBounds: readonly number[],
  ) {
    this.counts = new Array<number>(upperBounds.length + 1).fill(0);
  }

  observe(value: number): void {
    let bucket = 0;
    while (bucket < this.upperBounds.length && value > this.upperBounds[bucket]) bucket += 1;
    this.counts[bucket] += 1;
    this.sum += value;
    this.count += 1;
  }

  /** Observations at or below each bound, then the total (`+Inf`). */
  cumulative(): number[] {
    let running = 0;
    return this.counts.map((n) => (running += n));
  }
}

interface HistogramValue {
  readonly value: number;
  readonly labels: Readonly<Record<string, string | number>>;
  readonly metricName: string;
}

/**
 * A Prometheus histogram whose observations are a few additions on plain numbers, read by prom-client's
 * registry at scrape time. prom-client's own `Histogram.observe` validates and hashes the label set on
 * every call, even through a bound child; with two histograms per tool call that was a tenth of the
 * gateway's CPU per call (docs/adr/0005-gateway-hot-path.md, seventh round). The exposition is
 * prom-client's: `gateway-metrics.spec.ts` checks it line for line against a prom-client `Histogram`.
 */
export class AccumulatedHistogram {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  private readonly series = new Map<string, HistogramSeries>();

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly labelNames: readonly string[],
    private readonly upperBounds: readonly number[],
  ) {}

  /** The series of one label set (values in `labelNames` order), made on first use and kept. */
  seriesOf(...labelValues: string[]): HistogramSeries {
    const key = labelValues.length === 1 ? labelValues[0] : labelValues.join('\u0000'); // one label: no string built per call
    let series = this.series.get(key);
    if (series === undefined) {
      series = new HistogramSeries(Object.fromEntries(this.labelNames.map((label, i) => [label, labelValues[i]])), this.upperBounds);
      this.series.set(key, series);
    }
    return series;
  }

  /** What prom-client's registry reads: the shape its `Histogram.get()` returns. */
  async get(): Promise<{ name: string; help: string; type: string; aggregator: string; values: HistogramValue[] }> {
    const values: HistogramValue[] = [];
    for (const series of this.series.values()) {
      const cumulative = series.cumulative();
      this.upperBounds.forEach((le, i) =>
        values.push({ value: cumulative[i], labels: { le, ...series.labels }, metricName: `${this.name}_bucket` }),
      );
      values.push({ value: series.count, labels: { le: '+Inf', ...series.labels }, metricName: `${this.name}_bucket` });
      values.push({ value: series.sum, labels: series.labels, metricName: `${this.name}_sum` });
      values.push({ value: series.count, labels: series.labels, metricName: `${this.name}_count` });
    }
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }

  /**
   * For `Registry.registerMetric`, which reads any metric through `name`, `type` and `get()`, while its
   * typings name only prom-client's own classes.
   */
  asRegistered(): Metric {
    return this as unknown as Metric;
  }
}
