import { randomUUID } from 'node:crypto';

import { Cancellation } from '@toolmesh/protocol';

import { CallDeadline } from './call-deadline';
import { RelayRefusal, type ServerRequest, type ServerRequestRelay } from './server-request-relay';

/** A request of the server waiting for our caller's answer. */
interface Asked {
  readonly request: ServerRequest;
  readonly resolve: (result: Record<string, unknown>) => void;
  readonly reject: (error: Error) => void;
}

/** What a call does next: it ended, or its server asks our caller for input, each request under its key. */
export type CallProgress<T> = { readonly ended: T } | { readonly asks: ReadonlyMap<string, ServerRequest> };

/**
 * One forwarded call to a 2025 MCP server that may ask our caller for input on the way (issue 28): its
 * requests are queued here as they come, and whoever follows the call (`next`) puts them to the caller
 * and brings back the answers (`answer`). It owns the call's deadline and its cancellation, since a call
 * waiting on a 2026 caller's retry outlives the request that started it.
 */
export class RelayedCall<T> implements ServerRequestRelay {
  /** Aborted by `cancel` or the deadline: the server is told the call is cancelled. */
  readonly cancellation = new Cancellation();
  /** Running out cancels the call as `cancel` does. */
  readonly deadline = new CallDeadline(this.cancellation);
  private readonly queued: Asked[] = [];
  private readonly waiting = new Map<string, Asked>();
  private wake: (() => void) | undefined;
  private readonly ended: Promise<T>;

  /** `start` runs the call with this relay, its signal and its deadline; its promise must not reject. */
  constructor(start: (relay: RelayedCall<T>) => Promise<T>) {
    this.ended = start(this).finally(() => this.deadline.stop());
  }

  /** The cancellation as a standard signal, made only for a call whose server asks our caller for input. */
  get signal(): AbortSignal {
    return this.cancellation.signal;
  }

  ask(request: ServerRequest, signal: AbortSignal): Promise<Record<string, unknown>> {
    return new Promise((resolve, reject) => {
      const asked: Asked = { request, resolve, reject };
      this.queued.push(asked);
      signal.addEventListener('abort', () => this.drop(asked, new RelayRefusal('cancelled by the server')), { once: true });
      this.wake?.();
    });
  }

  /** The call's end, or the requests its server sent since the last `next`, each under a new key. */
  async next(): Promise<CallProgress<T>> {
    if (this.queued.length === 0) {
      const asked = new Promise<void>((resolve) => (this.wake = resolve));
      const ended = await Promise.race([this.ended.then((value) => ({ value })), asked.then(() => undefined)]);
      this.wake = undefined;
      if (ended !== undefined && this.queued.length === 0) return { ended: ended.value };
    }
    const asks = new Map<string, ServerRequest>();
    for (const asked of this.queued.splice(0)) {
      const key = randomUUID();
      this.waiting.set(key, asked);
      asks.set(key, asked.request);
    }
    return { asks };
  }

  /** The caller's answers, by key: each request waiting gets its own, or an error when the caller gave none. */
  answer(results: Readonly<Record<string, unknown>> | undefined): void {
    for (const [key, asked] of this.waiting) {
      const result = results?.[key];
      if (typeof result === 'object' && result !== null && !Array.isArray(result)) asked.resolve(result as Record<string, unknown>);
      else asked.reject(new RelayRefusal(`the caller gave no answer to ${asked.request.method}`, -32602));
    }
    this.waiting.clear();
  }

  /** The request waiting under `key` gets what `answer` settles with: the caller's result or its error. */
  settle(key: string, answer: Promise<Record<string, unknown>>): void {
    const asked = this.waiting.get(key);
    if (asked === undefined) return;
    answer.then(
      (result) => this.waiting.delete(key) && asked.resolve(result),
      (error: Error) => this.waiting.delete(key) && asked.reject(error),
    );
  }

  /** Each request waiting or queued gets `error`, the caller's own or the gateway's. */
  refuse(error: Error): void {
    for (const asked of [...this.waiting.values(), ...this.queued.splice(0)]) asked.reject(error);
    this.waiting.clear();
  }

  /** The requests are refused and the server's call cancelled: nobody will read its result. */
  cancel(reason: string): void {
    this.refuse(new RelayRefusal(reason, -32603));
    this.deadline.stop();
    this.cancellation.abort(new Error(reason));
  }

  private drop(asked: Asked, error: Error): void {
    const queuedAt = this.queued.indexOf(asked);
    if (queuedAt !== -1) this.queued.splice(queuedAt, 1);
    for (const [key, waiting] of this.waiting) if (waiting === asked) this.waiting.delete(key);
    asked.reject(error);
  }
}
