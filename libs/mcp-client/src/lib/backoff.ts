/**
 * The waits before each attempt to connect again after a loss, in order. After the last one, `repeat`
 * waits it again for as long as it takes (a gateway's upstream: it may come back any time), `give-up`
 * stops trying (an agent's server: reported unavailable for the rest of the session).
 */
export interface Backoff {
  readonly delaysMs: readonly number[];
  readonly afterLast: 'repeat' | 'give-up';
}

/** The wait before attempt `attempt` (0 is the first), or undefined when the backoff has given up. */
export function delayBefore(backoff: Backoff, attempt: number): number | undefined {
  const { delaysMs, afterLast } = backoff;
  if (attempt < delaysMs.length) return delaysMs[attempt];
  return afterLast === 'repeat' ? delaysMs[delaysMs.length - 1] : undefined;
}
