import { parseRetryAfter, pollDelay } from './retry-after';

const NOW = Date.parse('2026-12-07T12:00:00Z');
const BOUNDS = { defaultMillis: 2_000, minMillis: 250, maxMillis: 30_000 };

describe('Retry-After', () => {
  it('reads delay-seconds and HTTP-dates (RFC 9110 §10.2.3)', () => {
    expect(parseRetryAfter('3', NOW)).toBe(3_000);
    expect(parseRetryAfter(' 0 ', NOW)).toBe(0);
    expect(parseRetryAfter('Mon, 07 Dec 2026 12:00:05 GMT', NOW)).toBe(5_000);
    expect(parseRetryAfter('Mon, 07 Dec 2026 11:59:00 GMT', NOW)).toBe(0); // a date passed: now
  });

  it('ignores what is neither (a service cannot steer the poller with junk)', () => {
    for (const junk of [undefined, '', '-1', '1.5', 'soon', '1e3', '99999999999', 'Tomorrow', '2026-12-08'])
      expect(parseRetryAfter(junk, NOW)).toBeUndefined();
  });

  it('is kept within the configured bounds, the default where the service names none', () => {
    expect(pollDelay(undefined, NOW, BOUNDS)).toBe(2_000);
    expect(pollDelay('nonsense', NOW, BOUNDS)).toBe(2_000);
    expect(pollDelay('0', NOW, BOUNDS)).toBe(250); // no busy loop on a service saying "now"
    expect(pollDelay('3600', NOW, BOUNDS)).toBe(30_000); // never staler than maxMillis
    expect(pollDelay('5', NOW, BOUNDS)).toBe(5_000);
  });
});
