import { setMaxListeners } from 'node:events';
import type { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';

import {
  BoundedJsonBody,
  type Cancellation,
  DEFAULT_MAX_DEPTH,
  type ExchangeOptions,
  type InboundResponse,
  type JsonBodyLimit,
  type JSONRPCMessage,
  type JSONRPCRequest,
  McpHttpHeader,
  McpMethod,
  McpNotification,
  type McpTransport,
  oversizedReply,
  parseJsonRpcMessage,
  printable,
  type RequestId,
  tooDeepReply,
  type TransportSendOptions,
} from '@toolmesh/protocol';
import { type Dispatcher, request } from 'undici';

import { ExchangeReply, type ReplyHead } from './exchange-reply';
import { asAuthorizationFailure, type HttpAuthorization, isInsufficientScope, MAX_STEP_UPS_PER_REQUEST } from './http-authorization';
import { describeEndpoint, HttpClientError, HttpClientErrorCode } from './http-client-errors';
import { addPerMessageHeaders, addStandardHeaders, modernVersionOf } from './modern-request-headers';
import { isAnswerTo, PendingExchange } from './pending-exchange';
import { type SseParseEvent, SseParser } from './sse-parser';

/** Why an exchange's stream is closed once its answer was dropped (never seen: the exchange is settled by then). */
const DROPPED_ANSWER = new Error('the answer was dropped');

/** An answer dropped unparsed: too large, or nested too deep. */
type DroppedReply = Exclude<SseParseEvent, { kind: 'event' }>;

/** 4 MiB, as for stdio: far above any real reply, far below what would hurt the agent. */
const DEFAULT_MAX_MESSAGE_BYTES = 4 * 1024 * 1024;
/**
 * The deepest nesting of a message, the envelope being level 1: what the JSON-RPC parser accepts anyway
 * (DEFAULT_MAX_DEPTH), measured here as the bytes arrive so that a deeper reply is dropped unparsed. Parsed,
 * 4 MB of `[[[[` cost a second of CPU and hundreds of MB before the parser could refuse it (issue 43).
 * Not an option: a higher value would only move the parser's refusal later and make it dearer.
 */
const MAX_MESSAGE_DEPTH = DEFAULT_MAX_DEPTH;
/** Wait before reopening a stream when the server sent no `retry` of its own. */
const DEFAULT_RETRY_MS = 1000;
/** Reopening attempts in a row that bring no event before we stop trying. */
const MAX_FRUITLESS_RECONNECTS = 3;
/** How much of a refusal's body is kept for the caller to classify (a JSON-RPC error is far smaller). */
const REFUSAL_BODY_BYTES = 64 * 1024;

/**
 * Who a reply stream is for, when the SDK client gave a per-request signal (2026-07-28: closing a
 * request's stream is its cancellation, and a `subscriptions/listen` stream is closed that way) or wants
 * to hear that the stream ended without its answer (a dropped listen stream, to be opened again).
 */
interface StreamOwner {
  /**
   * Aborted when the owner gives the stream up on purpose: the SDK's request signal, or an exchange's
   * `Cancellation`. Only `aborted` is read, so an exchange needs no standard signal.
   */
  readonly cancelled?: { readonly aborted: boolean };
  readonly onEnd?: () => void;
  /** An exchange's: sees each message of the stream first, and keeps the ones it takes from `onmessage`. */
  readonly take?: (message: JSONRPCMessage) => boolean;
  /** An exchange's: told when its stream is given up without the answer, however that came about. */
  readonly onLost?: (error: Error) => void;
}

/** How much of a refusal's JSON-RPC error message the error's message quotes. */
const QUOTED_ERROR_CHARS = 200;

/**
 * `: <message>` when a refusal's body is a JSON-RPC error: the server's words for the user, printable and
 * cut. Nothing else of a body (an HTML page, a stack trace) ever reaches a message.
 */
function serverErrorText(body: string | undefined): string {
  if (body === undefined) return '';
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return '';
  }
  const text = (parsed as { error?: { message?: unknown } } | null)?.error?.message;
  return typeof text === 'string' && text.length > 0 ? `: ${printable(text, QUOTED_ERROR_CHARS)}` : '';
}

/** How far an SSE stream got: what reopening it needs (spec 2025-11-25, "Resumability and Redelivery"). */
interface StreamPosition {
  lastEventId?: string;
  retryMs?: number;
}

export interface StreamableHttpClientTransportOptions {
  /** Sent with every request (e.g. Authorization). Never logged, never part of an error message. */
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * Headers of one message, from the owner (a gateway's correlation ids, read from the message's `_meta`).
   * Like the SDK's per-message headers, they never replace the ones the transport owns.
   */
  readonly messageHeaders?: (message: JSONRPCMessage) => Readonly<Record<string, string>>;
  /** The keep-alive pool to send through; owned by the caller, who closes it. */
  readonly dispatcher: Dispatcher;
  readonly maxMessageBytes?: number;
  /**
   * Open the GET stream for notifications the server sends outside any request (spec 2025-06-18
   * "Listening for Messages from the Server") once initialized. Default true.
   */
  readonly listen?: boolean;
  /**
   * Told when that notification stream is over for good while the transport is still open (it broke and
   * could not be resumed): notifications sent outside a request no longer arrive, so an owner that must
   * hear them (a gateway listening for an upstream's `list_changed`) opens a new connection.
   */
  readonly onListenEnded?: () => void;
  /**
   * The server's credentials holder (OAuth): its header goes on every request, and a 401, or a 403 asking
   * for more scope, is handed to it and the request retried (once for a 401, up to
   * MAX_STEP_UPS_PER_REQUEST step-ups). Without it a 401 or 403 fails the request.
   */
  readonly authorization?: HttpAuthorization;
}

/**
 * MCP Streamable HTTP, client side (spec 2025-03-26 and later), on undici: every message is one POST
 * whose reply is 202, a JSON body or an SSE stream; the server's session id and the negotiated protocol
 * version go back on every later request; a GET stream carries server-initiated notifications; close
 * ends the session with DELETE. A stream that ends early is reopened with GET and `Last-Event-ID` after
 * the server's `retry` delay: a reply stream until its answer has come, the notification stream for as
 * long as the transport is open. Inbound bodies and events are limited in size and in JSON nesting as they
 * arrive, then parsed strictly; bad ones are reported through `onerror` and dropped (a request they answer
 * fails with the reason), and the transport stays usable.
 */
export class StreamableHttpClientTransport implements McpTransport {
  /** One POST per message: the SDK client cancels a 2026-07-28 request by aborting its `requestSignal`. */
  readonly hasPerRequestStream = true;
  onmessage?: McpTransport['onmessage'];
  onerror?: (error: Error) => void;
  onclose?: () => void;

  private session: string | undefined;
  private protocolVersion: string | undefined;
  private readonly aborter = new AbortController();
  private readonly maxMessageBytes: number;
  /** The endpoint's origin, path and query, as an exchange's dispatch names them (read once: a URL's getters build new strings). */
  private readonly origin: string;
  private readonly target: string;
  private state: 'new' | 'open' | 'closed' = 'new';
  private readonly exchanges = new Set<PendingExchange>();

  constructor(
    private readonly url: URL,
    private readonly options: StreamableHttpClientTransportOptions,
  ) {
    this.maxMessageBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    this.origin = url.origin;
    this.target = `${url.pathname}${url.search}`;
    // Every request in flight listens on this one signal (undici removes the listener when the request
    // ends), so dozens of concurrent calls are normal, not the leak Node's default limit of 10 warns about.
    setMaxListeners(0, this.aborter.signal);
  }

  get sessionId(): string | undefined {
    return this.session;
  }

  setProtocolVersion(version: string): void {
    this.protocolVersion = version;
  }

  async start(): Promise<void> {
    if (this.state !== 'new') throw new Error('StreamableHttpClientTransport.start() was called twice');
    this.state = 'open';
  }

  /**
   * `options` comes from the SDK client: `headers` (a tool call's `Mcp-Param-*`), `requestSignal` (aborts
   * this one request and its stream) and `onRequestStreamEnd` (its stream ended without its answer).
   * A 2026-07-28 message (its `_meta` names a modern version) also gets `MCP-Protocol-Version`,
   * `Mcp-Method` and `Mcp-Name` from its own body.
   */
  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    this.assertOpen();
    const modern = modernVersionOf(message);
    const headers = this.postHeaders(message, modern, options?.headers);
    const requestSignal = options?.requestSignal;
    const owner: StreamOwner = { cancelled: requestSignal, onEnd: options?.onRequestStreamEnd };
    const signal = requestSignal ? AbortSignal.any([this.aborter.signal, requestSignal]) : this.aborter.signal;
    const response = await this.request('POST', headers, JSON.stringify(message), signal);

    const sessionId = header(response.headers, McpHttpHeader.SessionId);
    if (sessionId && 'method' in message && message.method === McpMethod.Initialize) this.session = sessionId;

    if (response.statusCode >= 300) {
      if (!('id' in message)) throw await this.statusError(response);
      // A 2026-07-28 server refuses a request with 400 and a JSON-RPC error for it (-32022 names the
      // versions it serves): that is the request's answer, as the SDK's transport delivers it. Any
      // other refusal keeps the start of its body, for the era probe to classify and for the message
      // to quote the server's own error text ("no MCP endpoint at /nope; use /mcp").
      const body = await this.readRefusal(response.body);
      if (modern && response.statusCode === 400 && message.id !== undefined && this.deliverErrorFor(message.id, body)) return;
      throw await this.statusError(response, body);
    }
    // Nothing is owed for a notification (or our answer to a server request): the spec's reply is 202,
    // and a body some servers send anyway is not a message for us.
    if (response.statusCode === 202 || !('id' in message)) {
      await response.body.dump();
      if ('method' in message && message.method === McpNotification.Initialized && this.options.listen !== false) this.listen();
      return;
    }

    const contentType = header(response.headers, 'content-type') ?? '';
    if (contentType.startsWith('text/event-stream')) {
      // The reply streams in while the caller goes on; the SDK client correlates it when it arrives.
      this.follow(response.body, 'id' in message && 'method' in message ? message.id : undefined, owner);
    } else if (contentType.startsWith('application/json')) {
      const text = await this.readBody(response.body);
      if (text.kind === 'text') this.deliver(text.text);
      else if (message.id !== undefined) this.onmessage?.(this.droppedReply(message.id, text));
    } else {
      await response.body.dump();
      throw new HttpClientError(
        HttpClientErrorCode.UnexpectedContentType,
        `${this.endpoint} answered with content type "${contentType.slice(0, 64)}"`,
      );
    }
  }

  /**
   * One request and its answer, outside `onmessage` (a gateway's forwarded call, issue 28): the answer is
   * returned, from a JSON body or from the request's event stream (resumed as `send`'s are), with none of
   * the SDK client's per-request machinery, and read at undici's handler level (exchange-reply.ts).
   * Whatever else the stream brings goes to `options.route`, or to `onmessage` when the route does not
   * take it. A 2026-07-28 server's 400 with a JSON-RPC error for the request is its answer, as for `send`;
   * any other refusal, a lost stream, `close` and the signal reject.
   */
  exchange(request: JSONRPCRequest, options: ExchangeOptions = {}): Promise<InboundResponse> {
    const { cancellation } = options;
    try {
      this.assertOpen();
      cancellation?.throwIfAborted();
    } catch (error) {
      return Promise.reject(error);
    }
    // Not an async function: the pending exchange leaves `exchanges` and its cancellation itself once
    // settled, which spares every forwarded call an async frame (docs/adr/0005-gateway-hot-path.md).
    const pending = new PendingExchange(request.id, options.route, this.exchanges, cancellation);
    try {
      this.sendExchange(request, pending, cancellation);
    } catch (error) {
      pending.fail(asError(error));
    }
    return pending.answered;
  }

  async close(): Promise<void> {
    if (this.state === 'closed') return;
    this.state = 'closed';
    this.aborter.abort();
    const closed = new HttpClientError(
      HttpClientErrorCode.ConnectionClosed,
      `the connection to ${this.endpoint} was closed while a request ran`,
    );
    for (const pending of this.exchanges) pending.fail(closed);
    if (this.session) {
      // Best effort: a server that does not support ending sessions answers 405, which is fine.
      await this.request('DELETE', {}, undefined, AbortSignal.timeout(2000))
        .then((response) => response.body.dump())
        .catch(() => undefined);
    }
    this.onclose?.();
  }

  /**
   * An exchange's POST, its reply read by `ExchangeReply`: a JSON answer, or an event stream whose messages
   * go to `pending.take` as they arrive. A 401, or a 403 asking for more scope, is handed to the
   * credentials holder and the request sent again, as `request` does.
   */
  private sendExchange(request: JSONRPCRequest, pending: PendingExchange, cancellation: Cancellation | undefined): void {
    const modern = modernVersionOf(request);
    const extra = this.postHeaders(request, modern);
    // Without a credentials holder nothing is awaited: the POST goes in this turn.
    if (!this.options.authorization) return this.dispatchExchange(request, modern, pending, this.ownHeaders(extra), cancellation);
    this.headersOf(extra).then((headers) => this.dispatchExchange(request, modern, pending, headers, cancellation), pending.fail);
  }

  private dispatchExchange(
    request: JSONRPCRequest,
    modern: string | undefined,
    pending: PendingExchange,
    headers: Record<string, string>,
    cancellation: Cancellation | undefined,
  ): void {
    if (pending.isSettled) return;
    const position: StreamPosition = {};
    // A plain object: one with a getter, made per call, kept every call's objects alive past two young
    // collections (docs/adr/0005-gateway-hot-path.md, on object literals with accessors).
    const owner: StreamOwner = { cancelled: cancellation, take: pending.take, onLost: pending.fail };
    let events = 0;
    pending.reply = new ExchangeReply(this.maxMessageBytes, MAX_MESSAGE_DEPTH, {
      onEvent: (item) => {
        events += 1;
        // After an answer dropped for its size or depth nothing more of the stream is read, as in `readEvents`.
        if (this.readEvent(item, request.id, position, pending.take) && item.kind !== 'event') pending.reply?.stop(DROPPED_ANSWER);
      },
      onStreamEnd: () => {
        if (!pending.isSettled)
          this.afterStream(request.id, owner, position, events, 0).catch((error: unknown) => this.streamFailed(owner, error));
      },
      onBody: (head, text, broke) => {
        if (head.status < 300) {
          // Read in this turn: an async function per answer cost every forwarded call two promises (ADR 0005).
          try {
            this.exchangeAnswer(request, pending, head, text, broke);
          } catch (error) {
            pending.fail(error as Error);
          }
          return;
        }
        this.exchangeRefusal(request, modern, pending, head, text).then((again) => {
          if (again) this.sendExchange(request, pending, cancellation);
        }, pending.fail);
      },
      onError: (error) => pending.fail(this.requestFailed('POST', error)),
    });
    this.options.dispatcher.dispatch(
      {
        origin: this.origin,
        path: this.target,
        method: 'POST',
        headers,
        body: JSON.stringify(request),
        headersTimeout: 0,
        bodyTimeout: 0,
      },
      pending.reply,
    );
  }

  /**
   * An exchange's refusal (an HTTP status of 300 or more): a 2026-07-28 server's JSON-RPC refusal of the
   * request, or why there is no answer. True when it was a refusal for credentials, now handed over, and the
   * request is to be sent again.
   */
  private async exchangeRefusal(
    request: JSONRPCRequest,
    modern: string | undefined,
    pending: PendingExchange,
    { status, wwwAuthenticate }: ReplyHead,
    text: string | undefined,
  ): Promise<boolean> {
    if (await this.handedOver(status, wwwAuthenticate, pending)) return true;
    const refusal = modern && status === 400 && text !== undefined ? errorAnswerFor(request.id, text) : undefined;
    if (refusal) pending.answer(refusal);
    else throw this.statusFailure(status, text?.slice(0, REFUSAL_BODY_BYTES));
    return false;
  }

  /**
   * An exchange's reply of a 2xx status that is not an event stream: its JSON answer, given to `pending`, or
   * why there is none (`broke`: the limit a body dropped unread broke; too large is thrown).
   */
  private exchangeAnswer(
    request: JSONRPCRequest,
    pending: PendingExchange,
    head: ReplyHead,
    text: string | undefined,
    broke: JsonBodyLimit | undefined,
  ): void {
    const { status } = head;
    if (status === 202 || !head.contentType.startsWith('application/json')) {
      throw new HttpClientError(
        HttpClientErrorCode.UnexpectedContentType,
        `${this.endpoint} answered a request with ${status === 202 ? 'HTTP 202 and no answer' : `content type "${head.contentType.slice(0, 64)}"`}`,
      );
    }
    // Too deep, the answer is the same JSON-RPC error as for an event of a stream, whatever the reply's shape.
    if (broke === 'depth') return void pending.take(this.droppedReply(request.id, { kind: 'too_deep', maxDepth: MAX_MESSAGE_DEPTH }));
    if (text === undefined) {
      throw new HttpClientError(
        HttpClientErrorCode.MessageTooLarge,
        `${this.endpoint} answered with more than ${this.maxMessageBytes} bytes`,
      );
    }
    const message = this.deliver(text, pending.take);
    if (message === undefined || !isAnswerTo(message, request.id)) {
      throw new HttpClientError(
        HttpClientErrorCode.MalformedMessage,
        `${this.endpoint} answered a request with a body that is not its answer`,
      );
    }
  }

  /** Whether a refusal went to the credentials holder (at most once for a 401, MAX_STEP_UPS_PER_REQUEST step-ups). */
  private async handedOver(status: number, wwwAuthenticate: string | undefined, pending: PendingExchange): Promise<boolean> {
    const { authorization } = this.options;
    if (authorization === undefined) return false;
    const counts = (pending.refusals ??= { unauthorized: 0, stepUps: 0 });
    if (status === 401 && counts.unauthorized === 0) counts.unauthorized += 1;
    else if (status === 403 && isInsufficientScope(wwwAuthenticate) && counts.stepUps < MAX_STEP_UPS_PER_REQUEST) counts.stepUps += 1;
    else return false;
    await authorization.challenged({ status, wwwAuthenticate }).catch((error: unknown) => {
      throw asAuthorizationFailure(error);
    });
    return true;
  }

  /** The headers of a POST: the owner's and the SDK's per message, then the ones this transport owns. */
  private postHeaders(
    message: JSONRPCMessage,
    modern: string | undefined,
    sdkHeaders?: Readonly<Record<string, string>>,
  ): Record<string, string> {
    const headers: Record<string, string> = {};
    addPerMessageHeaders(headers, this.options.messageHeaders?.(message));
    if (sdkHeaders) addPerMessageHeaders(headers, sdkHeaders);
    if (modern) addStandardHeaders(headers, message, modern);
    headers.accept = 'application/json, text/event-stream';
    headers['content-type'] = 'application/json';
    return headers;
  }

  private assertOpen(): void {
    if (this.state !== 'open') throw new HttpClientError(HttpClientErrorCode.NotConnected, `the connection to ${this.endpoint} is closed`);
  }

  private get endpoint(): string {
    return describeEndpoint(this.url);
  }

  private listen(): void {
    void this.request('GET', { accept: 'text/event-stream' })
      .then(async (response) => {
        // 405: the server offers no stream of its own; notifications then only arrive on POST replies.
        if (!isEventStream(response)) return void (await this.refused(response));
        this.follow(response.body, undefined, { onEnd: this.options.onListenEnded });
      })
      .catch((error: unknown) => {
        this.reportUnlessClosed(error);
        if (!this.aborter.signal.aborted) this.options.onListenEnded?.();
      });
  }

  /**
   * Reads an SSE stream to its end. `awaiting` is the id of the request whose answer the stream owes
   * (undefined for the notification stream, which is owed for as long as the transport is open).
   */
  private follow(body: Readable, awaiting: RequestId | undefined, owner: StreamOwner, position: StreamPosition = {}, fruitless = 0): void {
    void this.readEvents(body, awaiting, position, owner.take)
      .then(({ answered, events }) => (answered ? undefined : this.afterStream(awaiting, owner, position, events, fruitless)))
      .catch((error: unknown) => this.streamFailed(owner, error));
  }

  /**
   * A stream ended without its answer (`awaiting`; the notification stream owes one for as long as the
   * transport is open): reopened with GET and `Last-Event-ID` after the server's `retry` delay, or given up.
   */
  private async afterStream(
    awaiting: RequestId | undefined,
    owner: StreamOwner,
    position: StreamPosition,
    events: number,
    fruitless: number,
  ): Promise<void> {
    if (this.state !== 'open' || owner.cancelled?.aborted) return;
    if (awaiting !== undefined && position.lastEventId === undefined) {
      const ended = `${this.endpoint} ended a reply stream before answering and without an event id to resume from`;
      if (owner.onLost) return owner.onLost(new HttpClientError(HttpClientErrorCode.StreamEnded, ended));
      if (owner.onEnd) return owner.onEnd();
      return this.report(HttpClientErrorCode.StreamEnded, ended);
    }
    const attempts = events > 0 ? 0 : fruitless + 1;
    // A reply stream's owner is the SDK's, which times the request out; the notification stream's is told.
    if (attempts > MAX_FRUITLESS_RECONNECTS) {
      const fruitlessEnd = `${this.endpoint} sent nothing on a reply stream reopened ${MAX_FRUITLESS_RECONNECTS} times`;
      return void (awaiting === undefined
        ? owner.onEnd?.()
        : owner.onLost?.(new HttpClientError(HttpClientErrorCode.StreamEnded, fruitlessEnd)));
    }
    await sleep(position.retryMs ?? DEFAULT_RETRY_MS, undefined, { signal: this.aborter.signal, ref: false });
    const headers: Record<string, string> = { accept: 'text/event-stream' };
    if (position.lastEventId !== undefined) headers['last-event-id'] = position.lastEventId;
    const response = await this.request('GET', headers);
    if (!isEventStream(response)) {
      await this.refused(response);
      const refused = `${this.endpoint} answered HTTP ${response.statusCode} when asked to resume a reply stream`;
      if (awaiting === undefined) return void (this.state === 'open' && owner.onEnd?.());
      if (owner.onLost) return owner.onLost(new HttpClientError(HttpClientErrorCode.StreamEnded, refused));
      return this.report(HttpClientErrorCode.StreamEnded, refused);
    }
    this.follow(response.body, awaiting, owner, position, attempts);
  }

  private streamFailed(owner: StreamOwner, error: unknown): void {
    // Aborted by its owner: the SDK client closed the stream on purpose (a cancel, a listen closed).
    if (owner.cancelled?.aborted) return;
    if (owner.onLost) return owner.onLost(streamBroken(error, this.endpoint));
    this.reportUnlessClosed(error);
    if (!this.aborter.signal.aborted) owner.onEnd?.();
  }

  private async readEvents(
    body: Readable,
    awaiting: RequestId | undefined,
    position: StreamPosition,
    take?: (message: JSONRPCMessage) => boolean,
  ): Promise<{ answered: boolean; events: number }> {
    const parser = new SseParser(this.maxMessageBytes, MAX_MESSAGE_DEPTH);
    let answered = false;
    let events = 0;
    // undici's body yields Buffers even after setEncoding('utf8'); a streaming decoder also keeps a
    // character cut between two chunks whole.
    const decoder = new TextDecoder();
    for await (const chunk of body as AsyncIterable<Buffer>) {
      for (const item of parser.push(decoder.decode(chunk, { stream: true }))) {
        events += 1;
        if (!this.readEvent(item, awaiting, position, take)) continue;
        answered = true;
        // The stream is read to its end after the answer (what follows it is still delivered, and the
        // connection goes back to the pool), but not after a dropped one: reading on or resuming
        // would only bring the same event again (it is replayed after Last-Event-ID).
        if (item.kind !== 'event') {
          body.destroy();
          return { answered, events };
        }
      }
    }
    return { answered, events };
  }

  /**
   * One item of a stream: its message delivered (to `take`, else `onmessage`), its id and retry delay kept
   * in `position`. True when it answered `awaiting`; an event dropped for its size or depth on a reply
   * stream is its answer (or blocks it), an error, so the request fails now.
   */
  private readEvent(
    item: SseParseEvent,
    awaiting: RequestId | undefined,
    position: StreamPosition,
    take: ((message: JSONRPCMessage) => boolean) | undefined,
  ): boolean {
    if (item.kind !== 'event') {
      if (awaiting === undefined) return false;
      const reply = this.droppedReply(awaiting, item);
      if (!take?.(reply)) this.onmessage?.(reply);
      return true;
    }
    const { event } = item;
    if (event.id !== undefined) position.lastEventId = event.id;
    if (event.retry !== undefined) position.retryMs = event.retry;
    // An event with empty data only primes the stream with an id and a retry delay (spec 2025-11-25).
    if (event.event !== 'message' || event.data === '') return false;
    const message = this.deliver(event.data, take);
    return message !== undefined && awaiting !== undefined && isAnswerTo(message, awaiting);
  }

  private reportUnlessClosed(error: unknown): void {
    if (!this.aborter.signal.aborted) this.onerror?.(asError(error));
  }

  private async request(
    method: 'POST' | 'GET' | 'DELETE',
    extra: Record<string, string>,
    body?: string,
    signal: AbortSignal = this.aborter.signal,
  ) {
    const authorization = this.options.authorization;
    let response = await this.requestOnce(method, extra, body, signal);
    // DELETE is best effort at close: no sign-in for it. Each refusal is handed over before the retry.
    for (let unauthorized = 0, stepUps = 0; authorization && method !== 'DELETE';) {
      const status = response.statusCode;
      const wwwAuthenticate = header(response.headers, 'www-authenticate');
      if (status === 401 && unauthorized === 0) unauthorized += 1;
      else if (status === 403 && isInsufficientScope(wwwAuthenticate) && stepUps < MAX_STEP_UPS_PER_REQUEST) stepUps += 1;
      else break;
      await response.body.dump();
      await authorization.challenged({ status, wwwAuthenticate }).catch((error: unknown) => {
        throw asAuthorizationFailure(error);
      });
      response = await this.requestOnce(method, extra, body, signal);
    }
    return response;
  }

  private async requestOnce(
    method: 'POST' | 'GET' | 'DELETE',
    extra: Record<string, string>,
    body: string | undefined,
    signal: AbortSignal,
  ) {
    const headers = await this.headersOf(extra);
    try {
      return await request(this.url, { method, headers, body, signal, dispatcher: this.options.dispatcher });
    } catch (error) {
      throw this.requestFailed(method, error);
    }
  }

  /** A request's headers: the configured ones, `extra`, then the session, the version and the credentials this transport owns. */
  private async headersOf(extra: Record<string, string>): Promise<Record<string, string>> {
    const headers = this.ownHeaders(extra);
    const credentials = await this.options.authorization?.authorization().catch((error: unknown) => {
      throw asAuthorizationFailure(error);
    });
    if (credentials !== undefined) headers.authorization = credentials;
    return headers;
  }

  /** The headers of a request but its credentials: the configured ones, `extra`, the session and the version. */
  private ownHeaders(extra: Record<string, string>): Record<string, string> {
    const headers: Record<string, string> = { ...this.options.headers, ...extra };
    if (this.session) headers[McpHttpHeader.SessionId] = this.session;
    if (this.protocolVersion) headers[McpHttpHeader.ProtocolVersion] = this.protocolVersion;
    return headers;
  }

  /** undici's own message names no header; we still say only what failed and where. */
  private requestFailed(method: string, error: unknown): HttpClientError {
    const cause = asError(error);
    return new HttpClientError(HttpClientErrorCode.RequestFailed, `${method} ${this.endpoint} failed: ${cause.message}`, { cause });
  }

  /** A GET that brought no stream; a 404 to our session there means the session is gone, as for a POST. */
  private async refused(response: Dispatcher.ResponseData): Promise<void> {
    await response.body.dump();
    if (response.statusCode === 404 && this.session) {
      this.report(HttpClientErrorCode.SessionExpired, `${this.endpoint} no longer knows our session (HTTP 404)`);
      this.sessionLost();
    }
  }

  /** `body`: the refusal's body when it was read (kept on the error, never put in its message). */
  private async statusError(response: Dispatcher.ResponseData, body?: string): Promise<HttpClientError> {
    if (body === undefined) await response.body.dump();
    return this.statusFailure(response.statusCode, body);
  }

  private statusFailure(status: number, body: string | undefined): HttpClientError {
    if (status === 404 && this.session) {
      this.sessionLost();
      return new HttpClientError(
        HttpClientErrorCode.SessionExpired,
        `${this.endpoint} no longer knows our session (HTTP 404); the request was not run`,
        { status },
      );
    }
    const hint =
      (status === 401 || status === 403) && !this.options.authorization ? '; check the credentials in the server\'s "headers"' : '';
    return new HttpClientError(HttpClientErrorCode.HttpStatus, `${this.endpoint} answered HTTP ${status}${serverErrorText(body)}${hint}`, {
      status,
      body,
    });
  }

  /** Up to REFUSAL_BODY_BYTES of a refusal's body as text; the rest is discarded unread. */
  private async readRefusal(body: Readable): Promise<string> {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of body as AsyncIterable<Buffer>) {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= REFUSAL_BODY_BYTES) {
        body.destroy();
        break;
      }
    }
    return Buffer.concat(chunks, size).subarray(0, REFUSAL_BODY_BYTES).toString('utf8');
  }

  /** Delivers `text` when it is a JSON-RPC error answering request `id`; false when it is anything else. */
  private deliverErrorFor(id: RequestId, text: string): boolean {
    const answer = errorAnswerFor(id, text);
    if (answer) this.onmessage?.(answer);
    return answer !== undefined;
  }

  /**
   * The server answered 404 to our session (it restarted, or ended the session): this transport is done,
   * and the spec's rule is a new session with a new initialize, which is the owner's to start. It closes
   * after the failed request has been told why (a macrotask later), so that one request fails with
   * `http.session_expired` (it never ran) and only the others with the closed connection.
   */
  private sessionLost(): void {
    this.session = undefined;
    setImmediate(() => void this.close());
  }

  /** A JSON body within the size and depth limits; past one, what was read is let go and the rest is not read. */
  private async readBody(body: Readable): Promise<{ kind: 'text'; text: string } | DroppedReply> {
    const bounded = new BoundedJsonBody(this.maxMessageBytes, MAX_MESSAGE_DEPTH);
    for await (const chunk of body as AsyncIterable<Buffer>) {
      const broke = bounded.push(chunk);
      if (broke === undefined) continue;
      body.destroy();
      return broke === 'bytes' ? { kind: 'oversized', bytes: bounded.bytes } : { kind: 'too_deep', maxDepth: MAX_MESSAGE_DEPTH };
    }
    return { kind: 'text', text: bounded.text() };
  }

  /**
   * What the client gets in place of an answer dropped for its size or depth: a JSON-RPC error naming the
   * limit, so request `id` fails now instead of at its timeout. The drop is reported, by code and limit only.
   */
  private droppedReply(id: RequestId, dropped: DroppedReply): JSONRPCMessage {
    if (dropped.kind === 'oversized') {
      this.report(HttpClientErrorCode.MessageTooLarge, `dropped a reply from ${this.endpoint} larger than ${this.maxMessageBytes} bytes`);
      return oversizedReply(id, dropped.bytes, this.maxMessageBytes, HttpClientErrorCode.MessageTooLarge);
    }
    this.report(HttpClientErrorCode.MessageTooDeep, `dropped a reply from ${this.endpoint} nested deeper than ${dropped.maxDepth} levels`);
    return tooDeepReply(id, dropped.maxDepth, HttpClientErrorCode.MessageTooDeep);
  }

  /** Parses one message and hands it to `take`, or to `onmessage` when `take` does not take it. */
  private deliver(text: string, take?: (message: JSONRPCMessage) => boolean): JSONRPCMessage | undefined {
    const parsed = parseJsonRpcMessage(text);
    if (!parsed.ok) {
      this.report(
        HttpClientErrorCode.MalformedMessage,
        `dropped a reply from ${this.endpoint} that is not a JSON-RPC message: ${parsed.error.error.message}`,
      );
      return undefined;
    }
    const message = parsed.value.message as JSONRPCMessage;
    if (!take?.(message)) this.onmessage?.(message);
    return message;
  }

  private report(code: HttpClientErrorCode, message: string): void {
    this.onerror?.(new HttpClientError(code, message));
  }
}

/** Why a reply stream was lost: our own error as it is, anything else (a reset, a parse failure) said as a broken stream. */
function streamBroken(error: unknown, endpoint: string): HttpClientError {
  if (error instanceof HttpClientError) return error;
  const cause = asError(error);
  return new HttpClientError(HttpClientErrorCode.RequestFailed, `the reply stream of ${endpoint} broke off: ${cause.message}`, { cause });
}

/** `text` when it is a JSON-RPC error answering request `id`. */
function errorAnswerFor(id: RequestId, text: string): InboundResponse | undefined {
  const parsed = parseJsonRpcMessage(text);
  if (!parsed.ok) return undefined;
  const message = parsed.value.message as JSONRPCMessage;
  return 'error' in message && message.id === id ? message : undefined;
}

function isEventStream(response: Dispatcher.ResponseData): boolean {
  return response.statusCode === 200 && (header(response.headers, 'content-type') ?? '').startsWith('text/event-stream');
}

function header(headers: Dispatcher.ResponseData['headers'], name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
