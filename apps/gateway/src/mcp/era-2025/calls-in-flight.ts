import type { RequestId } from '@toolmesh/protocol';
import type { RequestContext } from '@toolmesh/transport-http/server';

import { callerPart } from '../../execution/idempotency-key';
import type { CallStream } from '../handlers/call-stream';

/**
 * The 2025 calls of MCP servers' tools running on this replica, each under its caller and request id, so
 * that the caller's `notifications/cancelled`, which comes in a POST of its own naming the id, stops its
 * call (issue 44): its server is told as of a hang-up, and the call's answer is never sent. Only the
 * caller who made a call can name it: the key is its verified token (else the employee numbers it sent),
 * its session (`Mcp-Session-Id`, random and made by `initialize`; else its `guid`) and the id, as a
 * retry's `Idempotency-Key` is (idempotency-key.ts). A cancellation that reaches another replica, or names
 * a call that has ended or another caller's, is ignored, as the revisions say an unknown one may be.
 * Kept only for a caller that takes an event stream, which every 2025 client must: a cancelled call's
 * stream ends without its answer, where a JSON answer would have to say something.
 */
export class CallsInFlight {
  private readonly calls = new Map<string, CallStream>();

  /** `call` kept under its key until its answer settles, and returned; an id its caller reuses while in flight is not kept again. */
  tracked<T extends CallStream | undefined>(id: RequestId, context: RequestContext, call: T): T {
    if (call === undefined) return call;
    const key = keyOf(context, id);
    if (this.calls.has(key)) return call;
    this.calls.set(key, call);
    call.whenSettled(() => this.calls.delete(key));
    return call;
  }

  /** A caller's `notifications/cancelled`: its call of that `requestId`, if it runs here, is cancelled. */
  cancel(params: Record<string, unknown> | undefined, context: RequestContext): void {
    const requestId = params?.requestId;
    if (typeof requestId !== 'string' && typeof requestId !== 'number') return;
    this.calls.get(keyOf(context, requestId))?.cancel();
  }
}

function keyOf(context: RequestContext, id: RequestId): string {
  return `${callerPart(context)}\n${context.sessionId ?? context.guid}\n${JSON.stringify(id)}`;
}
