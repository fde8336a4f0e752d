import { hash } from 'node:crypto';

import type { RequestId } from '@toolmesh/protocol';
import type { RequestContext } from '@toolmesh/transport-http/server';

import { callerKey } from '../auth/caller-key';

/**
 * What identifies one tools/call across a client's retries of it, as the parts of its `Idempotency-Key`
 * (docs/manifest-format.md). Each era reads it from what its clients keep when they retry.
 */
export type CallIdentity = (name: string, params: Record<string, unknown>, context: RequestContext, id: RequestId) => readonly string[];

/**
 * Whose call it is: the verified token's caller, else (no `auth`) the employee numbers the caller sent,
 * which are who the tool service is told called. The session, `guid` and id are the client's own choice,
 * so without this two callers sending the same ones would get one key, and a service that keeps keys
 * would answer one caller with the other's stored reply.
 */
export function callerPart({ caller, employeeNo, virtualEmployeeNo }: RequestContext): string {
  if (caller !== undefined) return `token ${callerKey(caller)}`;
  return `employee ${employeeNo?.length ?? -1}:${employeeNo ?? ''}${virtualEmployeeNo ?? ''}`;
}

/**
 * 2025 revisions: a client retries a request with the same JSON-RPC id in the same session, so the
 * caller, the session (its `Mcp-Session-Id`, else its `guid`) and the id identify the call.
 */
export const legacyCallIdentity: CallIdentity = (name, _params, context, id) => [
  '2025',
  callerPart(context),
  context.sessionId ?? context.guid,
  JSON.stringify(id),
  name,
];

/**
 * 2026-07-28: no session, and every retry (a dropped stream, an MRTR round) carries a new id, so the call
 * is what it asks: the caller, its `guid`, the tool, the arguments, and the answers and state of an MRTR
 * round (each round is its own call).
 */
export const modernCallIdentity: CallIdentity = (name, params, context) => [
  '2026',
  callerPart(context),
  context.guid,
  name,
  JSON.stringify(params.arguments ?? {}),
  JSON.stringify(params.inputResponses ?? null),
  typeof params.requestState === 'string' ? params.requestState : '',
];

/**
 * The `Idempotency-Key` header value (IETF draft-ietf-httpapi-idempotency-key-header: a Structured Field
 * string): a SHA-256 of the identity, so neither a session id nor an argument value is ever sent or
 * logged as such. Unkeyed, so every replica derives the same key for the same call.
 */
export function idempotencyKey(identity: readonly string[]): string {
  // Each part's length first: no two different identities hash the same bytes. One-shot `hash` rather
  // than a Hash object: a third of the CPU, on every call (docs/benchmarks-history.md, "Twelfth round").
  let bytes = '';
  for (const part of identity) bytes += `${part.length}:${part}`;
  return `"${hash('sha256', bytes, 'base64url')}"`;
}
