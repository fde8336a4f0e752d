let cachedSecond = -1;
let cachedPrefix = '';

/**
 * Now as `new Date().toISOString()` writes it (`2026-12-07T19:32:15.231Z`), for each audit event: the date
 * and time to the second formatted once a second, only the milliseconds each call.
 */
export function isoTimeNow(now = Date.now()): string {
  const second = Math.floor(now / 1000);
  if (second !== cachedSecond) {
    cachedSecond = second;
    cachedPrefix = new Date(second * 1000).toISOString().slice(0, -4); // up to and with the seconds' "."
  }
  const millis = now - second * 1000;
  return `${cachedPrefix}${millis < 10 ? '00' : millis < 100 ? '0' : ''}${millis}Z`;
}
