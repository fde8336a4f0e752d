import { hash } from 'node:crypto';

import type { AuthenticatedCaller } from '@toolmesh/transport-http/server';

const keys = new WeakMap<AuthenticatedCaller, string>();

/**
 * Who a verified caller is, as one short opaque string: a SHA-256 of its token's issuer and subject (two
 * issuers may each have an `alice`), so no subject is ever kept or sent as such. What per-caller rate
 * limits count by and what scopes a call's `Idempotency-Key`. Made once per caller object: the verified
 * tokens hand out the same one for every call with a token.
 */
export function callerKey(caller: AuthenticatedCaller): string {
  let key = keys.get(caller);
  if (key === undefined) {
    const issuer = typeof caller.claims.iss === 'string' ? caller.claims.iss : '';
    key = hash('sha256', `${issuer.length}:${issuer}${caller.subject}`, 'base64url').slice(0, 22);
    keys.set(caller, key);
  }
  return key;
}
