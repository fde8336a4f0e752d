import type { PollBounds } from '../../config/task-settings';

/** RFC 9110 §10.2.3: delay-seconds (a non-negative integer). */
const DELAY_SECONDS = /^\s*(\d{1,10})\s*$/;

/**
 * The wait a `Retry-After` value asks for, in milliseconds: delay-seconds, or an HTTP-date (from `now`);
 * undefined for anything else (a service's malformed header is ignored, not obeyed).
 */
export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined;
  const seconds = DELAY_SECONDS.exec(value);
  if (seconds) return Number(seconds[1]) * 1000;
  // An HTTP-date names a day of the week; a bare number or other text is not one.
  if (!/^\s*[A-Za-z]{3},/.test(value)) return undefined;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** The wait before the next poll: the service's, kept within `bounds`, else the default. */
export function pollDelay(retryAfter: string | undefined, now: number, bounds: PollBounds): number {
  const asked = parseRetryAfter(retryAfter, now) ?? bounds.defaultMillis;
  return Math.min(bounds.maxMillis, Math.max(bounds.minMillis, asked));
}
