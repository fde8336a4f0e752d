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
  /** The requests put to our caller, by key; made by the first (most calls ask nothing). */
  private waiting: Map<string, Asked> | undefined;
  /** Set once the call has ended: what `next` returns when no request is queued. */
  private outcome: { readonly value: T } | { readonly error: unknown } | undefined;
  /** The promise of a `next` waiting for a request or the end: its own functions, kept as they are (ADR 0005). */
  private resolveNext: ((progress: CallProgress<T>) => void) | undefined;
  private rejectNext: ((error: unknown) => void) | undefined;

  /**
   * `start` runs the call with this relay, its signal and its deadline (a rejection of its promise is
   * thrown by `next`). The end is kept as a value and given to a waiting `next`, with no promise per wait
   * beyond its own and no async function: most calls ask nothing, and what is made for each call is
   * garbage for every call.
   */
  constructor(start: (relay: RelayedCall<T>) => Promise<T>) {
    start(this).then(
      (value) => this.end({ value }),
      (error: unknown) => this.end({ error }),
    );
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
      // Given to a waiting `next` a turn later: a request the server withdraws at once is never put to the caller.
      queueMicrotask(() => this.deliver());
    });
  }

  /** The call's end, or the requests its server sent since the last `next`, each under a new key. */
  next(): Promise<CallProgress<T>> {
    return new Promise((resolve, reject) => {
      this.resolveNext = resolve;
      this.rejectNext = reject;
      this.deliver();
    });
  }

  private end(outcome: { readonly value: T } | { readonly error: unknown }): void {
    this.deadline.stop();
    this.outcome = outcome;
    this.deliver();
  }

  /** Settles a waiting `next` with the queued requests, else with the call's end; while there is neither it waits on. */
  private deliver(): void {
    const { resolveNext, rejectNext, outcome } = this;
    if (resolveNext === undefined || rejectNext === undefined) return;
    if (this.queued.length === 0 && outcome === undefined) return;
    this.resolveNext = undefined;
    this.rejectNext = undefined;
    if (this.queued.length > 0) resolveNext({ asks: this.takeQueued() });
    else if (outcome !== undefined && 'error' in outcome) rejectNext(outcome.error);
    else if (outcome !== undefined) resolveNext({ ended: outcome.value });
  }

  /** The queued requests, each now waiting under a new key. */
  private takeQueued(): ReadonlyMap<string, ServerRequest> {
    const asks = new Map<string, ServerRequest>();
    const waiting = (this.waiting ??= new Map());
    for (const asked of this.queued.splice(0)) {
      const key = randomUUID();
      waiting.set(key, asked);
      asks.set(key, asked.request);
    }
    return asks;
  }

  /** The caller's answers, by key: each request waiting gets its own, or an error when the caller gave none. */
  answer(results: Readonly<Record<string, unknown>> | undefined): void {
    for (const [key, asked] of this.waiting ?? []) {
      const result = results?.[key];
      if (typeof result === 'object' && result !== null && !Array.isArray(result)) asked.resolve(result as Record<string, unknown>);
      else asked.reject(new RelayRefusal(`the caller gave no answer to ${asked.request.method}`, -32602));
    }
    this.waiting?.clear();
  }

  /** The request waiting under `key` gets what `answer` settles with: the caller's result or its error. */
  settle(key: string, answer: Promise<Record<string, unknown>>): void {
    const { waiting } = this;
    const asked = waiting?.get(key);
    if (waiting === undefined || asked === undefined) return;
    answer.then(
      (result) => waiting.delete(key) && asked.resolve(result),
      (error: Error) => waiting.delete(key) && asked.reject(error),
    );
  }

  /** Each request waiting or queued gets `error`, the caller's own or the gateway's. */
  refuse(error: Error): void {
    for (const asked of [...(this.waiting?.values() ?? []), ...this.queued.splice(0)]) asked.reject(error);
    this.waiting?.clear();
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
    for (const [key, waiting] of this.waiting ?? []) if (waiting === asked) this.waiting?.delete(key);
    asked.reject(error);
  }
}
