import { Histogram, Registry } from 'prom-client';

import { AccumulatedHistogram } from './accumulated-histogram';

const BUCKETS = [0.001, 0.01, 0.1, 1];

describe('AccumulatedHistogram', () => {
  it('is scraped exactly as prom-client writes its own Histogram of the same observations', async () => {
    const ours = new Registry();
    const theirs = new Registry();
    const accumulated = new AccumulatedHistogram('calls_seconds', 'Time of a call', ['method', 'era'], BUCKETS);
    ours.registerMetric(accumulated.asRegistered());
    const reference = new Histogram({
      name: 'calls_seconds',
      help: 'Time of a call',
      labelNames: ['method', 'era'],
      buckets: BUCKETS,
      registers: [theirs],
    });
    // On a bound, between bounds, past the last one, and in two label sets.
    const observations: Array<[string, string, number]> = [
      ['tools/call', 'legacy', 0.001],
      ['tools/call', 'legacy', 0.0005],
      ['tools/call', 'legacy', 0.05],
      ['tools/call', 'legacy', 7],
      ['tools/list', 'modern', 0.2],
    ];
    for (const [method, era, value] of observations) {
      accumulated.seriesOf(method, era).observe(value);
      reference.labels(method, era).observe(value);
    }

    const text = await ours.metrics();
    expect(text).toBe(await theirs.metrics());
    expect(text).toContain('calls_seconds_bucket{le="0.001",method="tools/call",era="legacy"} 2');
    expect(text).toContain('calls_seconds_bucket{le="+Inf",method="tools/call",era="legacy"} 4');
    expect(text).toContain('calls_seconds_count{method="tools/list",era="modern"} 1');
  });

  it('keeps one series per label set', () => {
    const histogram = new AccumulatedHistogram('h', 'h', ['tool'], BUCKETS);
    expect(histogram.seriesOf('echo')).toBe(histogram.seriesOf('echo'));
    expect(histogram.seriesOf('echo')).not.toBe(histogram.seriesOf('other'));
  });
});
