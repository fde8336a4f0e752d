import { BoundedJsonBody } from '@toolmesh/protocol';
import type { HangUpSignal } from '@toolmesh/transport-http/server';
import { Agent, type Dispatcher } from 'undici';

import type { AcceptedHeaders, ToolClient, ToolHttpRequest, ToolHttpResponse } from './tool-client';

export interface UndiciToolClientOptions {
  /** Keep-alive connections per tool service origin. */
  connectionsPerOrigin: number;
  /** Replies larger than this are refused rather than buffered. */
  maxReplyBytes: number;
  /** Replies nested deeper than this are refused as they arrive, before they are parsed (the request parser's limit). */
  maxReplyDepth: number;
}

/**
 * The tool-call HTTP client: one keep-alive pool per tool service origin, shared by all requests, and
 * separate from the catalogue's client. undici, not got: got caps the gateway far below its throughput
 * target (docs/adr/0004-undici-for-tool-calls.md). Calls go through undici's handler-level `dispatch`,
 * not `request`: no response stream, no async iteration and no per-call async resource, which made the
 * outbound call a large share of the gateway's CPU per call (docs/adr/0005-gateway-hot-path.md).
 */
export class UndiciToolClient implements ToolClient {
  private readonly agent: Agent;
  /** Each endpoint's origin and path, read once: a `URL`'s getters build new strings on every read. */
  private readonly targets = new WeakMap<URL, { readonly origin: string; readonly path: string }>();

  constructor(private readonly options: UndiciToolClientOptions) {
    this.agent = new Agent({ connections: options.connectionsPerOrigin, keepAliveTimeout: 30_000 });
  }

  post(request: ToolHttpRequest): Promise<ToolHttpResponse> {
    const target = this.targetOf(request.endpoint);
    return new Promise((resolve) => {
      this.agent.dispatch(
        {
          origin: target.origin,
          path: request.path ?? target.path,
          method: (request.method ?? 'POST') as Dispatcher.HttpMethod,
          headers: request.headers,
          body: request.body,
          // The collector's one timer bounds the whole call; undici's own timers would only add work per call.
          headersTimeout: 0,
          bodyTimeout: 0,
        },
        new ToolReplyCollector(request.timeoutMillis, this.options, request.hangUp, resolve),
      );
    });
  }

  private targetOf(endpoint: URL): { readonly origin: string; readonly path: string } {
    let target = this.targets.get(endpoint);
    if (target === undefined) {
      target = { origin: endpoint.origin, path: `${endpoint.pathname}${endpoint.search}` };
      this.targets.set(endpoint, target);
    }
    return target;
  }

  /** Called once the front has drained and cut its requests (whose hang-up signals cancelled their calls): nothing is waited for. */
  close(): Promise<void> {
    return this.agent.destroy();
  }
}

/**
 * Collects one reply and settles the call exactly once. One timer, started when the call is dispatched,
 * bounds the whole call: connecting, waiting for the reply and reading its body. (undici's headers and
 * body timeouts, plus a timer of our own for the body, cost a share of the gateway's CPU per call;
 * an `AbortSignal.timeout()` per call cost 15% of its throughput: docs/adr/0005-gateway-hot-path.md.)
 * The caller hanging up ends the call the same way the timer does (docs/adr/0013-cancelled-calls-and-shutdown.md).
 *
 * It speaks the handler protocol undici's dispatchers run on (`onConnect` ... `onComplete`), which its
 * types mark deprecated in favour of the controller one: a controller handler is wrapped per call in an
 * adapter that allocates a controller and turns the raw reply headers and trailers into objects, which
 * nothing here reads (ADR 0005, ninth round). undici is pinned, and the specs of this client run on it.
 */
class ToolReplyCollector implements Dispatcher.DispatchHandler {
  private status = 0;
  private accepted: AcceptedHeaders | undefined;
  private readonly body: BoundedJsonBody;
  private readonly timer: NodeJS.Timeout;
  private timedOut = false;
  private cancelled = false;
  /** Why the call was stopped (its time was up, or the caller hung up), for a request undici starts after that. */
  private stopReason: Error | undefined;
  private settled = false;
  private abort: ((reason: Error) => void) | undefined;

  constructor(
    private readonly timeoutMillis: number,
    private readonly limits: Pick<UndiciToolClientOptions, 'maxReplyBytes' | 'maxReplyDepth'>,
    private readonly hangUp: HangUpSignal | undefined,
    private readonly settle: (response: ToolHttpResponse) => void,
  ) {
    this.body = new BoundedJsonBody(limits.maxReplyBytes, limits.maxReplyDepth);
    this.timer = setTimeout(this.onTimeout, timeoutMillis);
    hangUp?.onHangUp(this.onCancel);
  }

  private readonly onTimeout = (): void => {
    this.timedOut = true;
    this.stop(new Error('tool call timeout'));
  };

  private readonly onCancel = (): void => {
    this.cancelled = true;
    this.stop(new Error('tool call cancelled'));
  };

  /** Before undici has started the request there is nothing to abort: settle now, and abort when it starts. */
  private stop(reason: Error): void {
    this.stopReason ??= reason;
    if (this.abort) this.abort(reason);
    else this.finish(this.failure(reason));
  }

  onConnect(abort: (reason: Error) => void): void {
    this.abort = abort;
    if (this.stopReason) abort(this.stopReason);
  }

  onHeaders(statusCode: number, rawHeaders: Buffer[]): boolean {
    this.status = statusCode;
    if (statusCode === 202) this.accepted = acceptedHeaders(rawHeaders);
    return true;
  }

  onData(chunk: Buffer): boolean {
    const broke = this.body.push(chunk);
    if (broke === undefined) return true;
    const { maxReplyBytes, maxReplyDepth } = this.limits;
    return broke === 'bytes'
      ? this.refuse('reply_too_large', `the reply exceeds ${maxReplyBytes} bytes`)
      : this.refuse('reply_too_deep', `the reply is nested deeper than ${maxReplyDepth} levels`);
  }

  /** Ends the call on what has arrived so far: nothing more is read (what was buffered is let go already). */
  private refuse(reason: 'reply_too_large' | 'reply_too_deep', detail: string): false {
    this.finish({ kind: 'failure', reason, detail });
    this.abort?.(new Error(detail));
    return false;
  }

  onComplete(): void {
    const body = this.body.text();
    this.finish(
      this.accepted ? { kind: 'reply', status: this.status, body, accepted: this.accepted } : { kind: 'reply', status: this.status, body },
    );
  }

  onError(error: Error): void {
    this.finish(this.failure(error));
  }

  private failure(error: Error): ToolHttpResponse {
    if (this.cancelled && !this.timedOut)
      return { kind: 'failure', reason: 'cancelled', detail: 'the call was cancelled before its reply' };
    return classifyFailure(error, this.timedOut, this.timeoutMillis);
  }

  private finish(response: ToolHttpResponse): void {
    clearTimeout(this.timer);
    this.hangUp?.offHangUp(this.onCancel);
    if (this.settled) return;
    this.settled = true;
    this.settle(response);
  }
}

/** A 202's `Location` and `Retry-After` (the first of each), from undici's raw name/value pairs. */
function acceptedHeaders(rawHeaders: Buffer[]): AcceptedHeaders {
  let location: string | undefined;
  let retryAfter: string | undefined;
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const name = rawHeaders[i].toString('latin1').toLowerCase();
    if (name === 'location') location ??= rawHeaders[i + 1].toString('latin1');
    else if (name === 'retry-after') retryAfter ??= rawHeaders[i + 1].toString('latin1');
  }
  return { ...(location !== undefined && { location }), ...(retryAfter !== undefined && { retryAfter }) };
}

function classifyFailure(error: unknown, timedOut: boolean, timeoutMillis: number): ToolHttpResponse {
  const code = (error as { code?: string }).code ?? '';
  if (timedOut || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') {
    return { kind: 'failure', reason: 'timeout', detail: `no complete reply within ${timeoutMillis} ms` };
  }
  if (code === 'ECONNREFUSED') return { kind: 'failure', reason: 'connection_refused', detail: 'the tool service refused the connection' };
  return { kind: 'failure', reason: 'network', detail: `the call failed (${code || (error as Error).name})` };
}
