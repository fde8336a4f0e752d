import type { ServerNotification } from '@toolmesh/protocol';
import { type SeededRandom as Random, seededRandom } from '@toolmesh/test-peers/seeded-random';

import { SUMMARY_FIELD_MAX_CHARS } from './event-summary';
import { NotificationMapper } from './notification-mapper';

/**
 * Property: whatever a peer puts in a notification (params of any type, fields of the wrong type, huge or
 * deep values, hostile keys), the mapper never throws, and an event it returns is well-formed and bounded.
 * A failure names the seed and case that reproduce it.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 0x2e3a4e);
const CASES = Number(process.env.FUZZ_CASES ?? 5_000);

const METHODS = [
  'notifications/resources/updated',
  'notifications/message',
  'notifications/progress',
  'notifications/jobs/done',
  'jobs/x',
  '',
  'notifications/tools/list_changed',
];
const KEYS = ['uri', 'level', 'logger', 'data', '_meta', '__proto__', 'constructor', 'toString', 'progressToken', 'x'];
const STRINGS = ['', 'file:///reports/a', 'warning', 'debug', 'emergency', 'LOUD', '\u0000', '\ud800', '😀', 'y'.repeat(5000)];

function randomValue(r: Random, depth: number): unknown {
  switch (depth > 6 ? r.int(5) : r.int(8)) {
    case 0:
      return null;
    case 1:
      return r.next() < 0.5;
    case 2:
      return r.pick([0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 60]);
    case 3:
      return r.pick(STRINGS);
    case 4:
      return undefined;
    case 5:
      return Array.from({ length: r.int(4) }, () => randomValue(r, depth + 1));
    default: {
      const object: Record<string, unknown> = Object.create(r.next() < 0.1 ? null : Object.prototype);
      for (let i = r.int(5); i > 0; i--) object[r.pick(KEYS)] = randomValue(r, depth + 1);
      return object;
    }
  }
}

function randomNotification(r: Random): ServerNotification {
  const notification: Record<string, unknown> = { jsonrpc: '2.0', method: r.next() < 0.9 ? r.pick(METHODS) : randomValue(r, 5) };
  const params =
    r.next() < 0.2
      ? randomValue(r, 0)
      : Object.fromEntries(KEYS.filter(() => r.next() < 0.4).map((key) => [key, r.next() < 0.5 ? r.pick(STRINGS) : randomValue(r, 1)]));
  if (r.next() < 0.02 && typeof params === 'object' && params !== null) (params as Record<string, unknown>).data = 10n; // not JSON-serializable
  if (params !== undefined) notification.params = params;
  const receivedAt = r.next() < 0.9 ? new Date(0) : (r.pick([new Date(Number.NaN), undefined, 'yesterday']) as Date);
  return { server: 'fuzz', notification: notification as unknown as ServerNotification['notification'], receivedAt };
}

describe('NotificationMapper (seeded fuzz)', () => {
  const mapper = new NotificationMapper([
    { method: 'notifications/*', type: 'any', minLevel: 'warning' },
    { method: 'notifications/resources/updated', type: 'report', uriPrefix: 'file:///reports/' },
    { method: 'jobs/*', type: 'job' },
  ]);

  it(`never throws and returns only well-formed, bounded events (seed ${SEED}, ${CASES} cases)`, () => {
    const r = seededRandom(SEED);
    let events = 0;
    for (let i = 0; i < CASES; i++) {
      const input = randomNotification(r);
      let event;
      try {
        event = mapper.map(input);
      } catch (error) {
        throw new Error(`case ${i} (seed ${SEED}) threw: ${String(error)}`, { cause: error });
      }
      if (event === undefined) continue;
      events += 1;
      const problems = [
        typeof event.method === 'string' ? '' : 'method',
        ['any', 'report', 'job', 'log', 'resource.updated'].includes(event.type) ? '' : 'type',
        Number.isNaN(Date.parse(event.receivedAt)) ? 'receivedAt' : '',
        ...Object.entries(event.summary).map(([key, value]) =>
          typeof value === 'string' && value.length <= SUMMARY_FIELD_MAX_CHARS ? '' : `summary.${key}`,
        ),
      ].filter(Boolean);
      if (problems.length > 0)
        throw new Error(`case ${i} (seed ${SEED}) gave a malformed event (${problems.join(', ')}): ${JSON.stringify(event)}`);
      expect(() => JSON.stringify(event)).not.toThrow();
    }
    // The generator must reach the mapping paths, not only the early exits.
    expect(events).toBeGreaterThan(CASES / 20);
  });
});
