import { isoTimeNow } from './audit-time';

describe('isoTimeNow', () => {
  it("writes what toISOString writes, across milliseconds' widths and second, day and year boundaries", () => {
    const instants = [
      Date.UTC(2026, 11, 7, 19, 32, 15, 231),
      Date.UTC(2026, 11, 7, 19, 32, 15, 7),
      Date.UTC(2026, 11, 7, 19, 32, 15, 42),
      Date.UTC(2026, 11, 7, 19, 32, 15, 999),
      Date.UTC(2026, 11, 7, 19, 32, 16, 0),
      Date.UTC(2026, 11, 31, 23, 59, 59, 999),
      Date.UTC(2027, 0, 1, 0, 0, 0, 1),
      Date.UTC(2027, 0, 1, 0, 0, 0, 1), // the same second again: from the cached prefix
    ];
    for (const instant of instants) expect(isoTimeNow(instant)).toBe(new Date(instant).toISOString());
  });

  it('is now by default', () => {
    const before = Date.now();
    const written = Date.parse(isoTimeNow());
    expect(written).toBeGreaterThanOrEqual(before);
    expect(written).toBeLessThanOrEqual(Date.now());
  });
});
