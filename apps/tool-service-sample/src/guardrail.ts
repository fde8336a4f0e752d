import type { IncomingMessage } from 'node:http';

import { MAX_BODY_BYTES, readBody } from './http/read-body';
import { errorReply, jsonReply, type Reply } from './http/reply';

/** Where the sample's guardrail answers the gateway's webhook interceptors (config/examples/governed.yaml). */
export const GUARDRAIL_PATH = '/guardrail';

/** The customers whose data is under legal hold: no tool call may name one. */
const LEGAL_HOLD = new Set(['C1003']);

/**
 * A tiny guardrail service for the gateway's `webhook` interceptor (docs/gateway.md, "Interceptors"): it is
 * sent the tool, its arguments and the caller's verified claims, and answers as SEP-2624's validation result.
 * Its one rule: a call whose arguments name a customer under legal hold is denied, with the reason; any other
 * call is allowed. On the response phase it allows every result.
 */
export async function guardrailVerdict(req: IncomingMessage): Promise<Reply> {
  const body = await readBody(req);
  if (!body.ok) return errorReply(body.reason === 'too_large' ? 413 : 400, `the request must be JSON of at most ${MAX_BODY_BYTES} bytes`);
  let asked: { payload?: { arguments?: unknown } };
  try {
    asked = JSON.parse(body.text) as typeof asked;
  } catch {
    return errorReply(400, 'the request is not JSON');
  }
  const args = asked.payload?.arguments;
  const held = typeof args === 'object' && args !== null ? Object.values(args).find((value) => LEGAL_HOLD.has(String(value))) : undefined;
  return jsonReply(
    200,
    held === undefined
      ? { type: 'validation', valid: true }
      : { type: 'validation', valid: false, messages: [{ message: `customer ${String(held)} is under legal hold` }] },
  );
}
