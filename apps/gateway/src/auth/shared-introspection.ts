import type { TokenRefusalReason, TokenVerification, TokenVerifier } from './jwt-verifier';

export interface SharedIntrospectionLimits {
  /** Refused tokens remembered at most, the oldest forgotten first (`auth.maxCachedTokens`). */
  readonly maxRefusals: number;
  /** How long a refusal is remembered. */
  readonly refusalMillis: number;
  /** Introspections under way at most; a token that would start one more is refused at once. */
  readonly maxInFlight: number;
}

/**
 * Refusals are remembered for 10 s: long enough that a caller repeating a bad token costs the
 * authorization server nothing, short enough that a token refused in error (a server that had not yet
 * stored it) is asked about again soon.
 */
export const INTROSPECTION_LIMITS: Omit<SharedIntrospectionLimits, 'maxRefusals'> = { refusalMillis: 10_000, maxInFlight: 64 };

const TOO_MANY_IN_FLIGHT: TokenVerification = { refused: 'introspection_unavailable' };

/**
 * Introspection (`ask`, token-introspection.ts) that a caller cannot turn into an amplifier against the
 * authorization server (issue 43): concurrent checks of one token share one introspection; the server's
 * refusal of a token is remembered for `refusalMillis`, in a map of at most `maxRefusals`, so random
 * tokens cannot grow memory; and beyond `maxInFlight` introspections under way a new token is refused
 * (`introspection_unavailable`) rather than queued. An unavailable server's answer is not remembered: the
 * next request asks again. Tokens are held in memory only, never logged.
 */
export function sharedIntrospection(
  ask: TokenVerifier,
  { maxRefusals, refusalMillis, maxInFlight }: SharedIntrospectionLimits,
  now: () => number = Date.now,
): TokenVerifier {
  const refused = new Map<string, { readonly reason: TokenRefusalReason; readonly until: number }>();
  const inFlight = new Map<string, Promise<TokenVerification>>();

  const remember = (token: string, verification: TokenVerification): TokenVerification => {
    if ('refused' in verification && verification.refused !== 'introspection_unavailable') {
      if (refused.size >= maxRefusals) refused.delete(refused.keys().next().value as string);
      refused.set(token, { reason: verification.refused, until: now() + refusalMillis });
    }
    return verification;
  };

  return (token) => {
    const refusal = refused.get(token);
    if (refusal !== undefined) {
      if (refusal.until > now()) return Promise.resolve({ refused: refusal.reason });
      refused.delete(token);
    }
    const pending = inFlight.get(token);
    if (pending !== undefined) return pending;
    if (inFlight.size >= maxInFlight) return Promise.resolve(TOO_MANY_IN_FLIGHT);
    const asked = ask(token)
      .then((verification) => remember(token, verification))
      .finally(() => inFlight.delete(token));
    inFlight.set(token, asked);
    return asked;
  };
}
