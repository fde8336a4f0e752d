import { ProtocolError, SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import type { JSONRPCMessage, RequestId } from '@toolmesh/protocol';

interface Pending {
  resolve(result: unknown): void;
  reject(error: unknown): void;
  stop(): void;
}

/**
 * Requests the client sends past the SDK's `Client` over the same transport (the Tasks methods: the SDK v2
 * has no task runtime, refuses `tasks/get` toward a 2026-07-28 server as a deleted 2025 method, and rejects a
 * `resultType: "task"` result). Their ids are strings of their own (`d1`, `d2`, ...), where the SDK's are
 * numbers, and their answers are taken off the transport before the SDK sees them. A JSON-RPC error is
 * thrown as the SDK would throw it (`ProtocolError`); a timeout, an abort or the closed connection as the
 * SDK's own errors, so callers read one kind of failure whichever path a request took.
 */
export class DirectRequests {
  private readonly pending = new Map<RequestId, Pending>();
  private next = 0;

  /** A fresh id, and the promise of the answer to the request the caller then sends with it. */
  expect(timeoutMs: number, signal: AbortSignal | undefined): { id: string; answer: Promise<unknown> } {
    const id = `d${(this.next += 1)}`;
    const answer = new Promise<unknown>((resolve, reject) => {
      const onAbort = () => settle(() => reject(signal?.reason ?? new Error('aborted')));
      const timer = setTimeout(
        () => settle(() => reject(new SdkError(SdkErrorCode.RequestTimeout, `Request timed out after ${timeoutMs} ms`))),
        timeoutMs,
      );
      const settle = (then: () => void) => {
        this.pending.get(id)?.stop();
        then();
      };
      this.pending.set(id, {
        resolve,
        reject,
        stop: () => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
          this.pending.delete(id);
        },
      });
      if (signal?.aborted) onAbort();
      else signal?.addEventListener('abort', onAbort, { once: true });
    });
    return { id, answer };
  }

  /** Whether the message answers one of ours: then it is settled here and must not reach the SDK. */
  settle(message: JSONRPCMessage): boolean {
    if (!('id' in message) || message.id === undefined || 'method' in message) return false;
    const request = this.pending.get(message.id);
    if (!request) return false;
    request.stop();
    if ('error' in message) request.reject(new ProtocolError(message.error.code, message.error.message, message.error.data));
    else request.resolve((message as { result?: unknown }).result);
    return true;
  }

  /** A send that failed, or the connection that ended: every request still waiting fails with it. */
  fail(id: string, error: unknown): void {
    const request = this.pending.get(id);
    request?.stop();
    request?.reject(error);
  }

  closeAll(): void {
    for (const id of [...this.pending.keys()]) this.fail(String(id), new SdkError(SdkErrorCode.ConnectionClosed, 'Connection closed'));
  }
}
