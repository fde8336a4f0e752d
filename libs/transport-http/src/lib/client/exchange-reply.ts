import { TextDecoder } from 'node:util';

import { BoundedJsonBody, type JsonBodyLimit } from '@toolmesh/protocol';
import type { Dispatcher } from 'undici';

import { type SseParseEvent, SseParser } from './sse-parser';

/** What an exchange's reply brings, as it arrives. */
export interface ExchangeReplyEvents {
  /** Each event of a `200 text/event-stream` reply, or its stand-in when too large or too deep, in order. */
  readonly onEvent: (item: SseParseEvent) => void;
  /**
   * Any other reply, read whole within the limits: a JSON answer, or a refusal whose body a refused request's
   * error quotes. Past a limit, `text` is undefined and `broke` names the limit (the rest is never read).
   */
  readonly onBody: (reply: ReplyHead, text: string | undefined, broke?: JsonBodyLimit) => void;
  /** A `200 text/event-stream` reply ended (the answer may or may not have come on it). */
  readonly onStreamEnd: () => void;
  readonly onError: (error: Error) => void;
}

/** The status and the headers an exchange reads of a reply. */
export interface ReplyHead {
  readonly status: number;
  readonly contentType: string;
  readonly wwwAuthenticate: string | undefined;
}

/**
 * One exchange's reply, read at undici's handler level, as the gateway's tool client reads a tool
 * service's (docs/adr/0005-gateway-hot-path.md): no response stream, no async iteration, no per-call
 * async resource. An event stream is parsed chunk by chunk as it arrives; any other body is kept up to
 * `maxBytes` and `maxDepth` levels of JSON nesting, both measured as it arrives, as are an event's. It speaks the handler protocol undici's dispatchers run on (`onConnect` ... `onComplete`),
 * which its types mark deprecated in favour of the controller one, for the reason ADR 0005 gives.
 */
export class ExchangeReply implements Dispatcher.DispatchHandler {
  private head: ReplyHead = { status: 0, contentType: '', wwwAuthenticate: undefined };
  private stream: { readonly parser: SseParser; readonly decoder: TextDecoder } | undefined;
  private body: BoundedJsonBody | undefined;
  private abortRequest: ((reason: Error) => void) | undefined;
  private stopReason: Error | undefined;
  private done = false;

  constructor(
    private readonly maxBytes: number,
    private readonly maxDepth: number,
    private readonly events: ExchangeReplyEvents,
  ) {}

  /** Ends the request (over HTTP, the reply's stream closed): at once, or as soon as undici starts it. */
  stop(reason: Error): void {
    this.stopReason ??= reason;
    this.done = true;
    this.abortRequest?.(reason);
  }

  onConnect(abort: (reason: Error) => void): void {
    this.abortRequest = abort;
    if (this.stopReason) abort(this.stopReason);
  }

  onHeaders(status: number, rawHeaders: Buffer[]): boolean {
    let contentType = '';
    let wwwAuthenticate: string | undefined;
    for (let i = 0; i < rawHeaders.length; i += 2) {
      const name = rawHeaders[i].toString('latin1').toLowerCase();
      if (name === 'content-type') contentType = rawHeaders[i + 1].toString('latin1');
      else if (name === 'www-authenticate') wwwAuthenticate = rawHeaders[i + 1].toString('latin1');
    }
    this.head = { status, contentType, wwwAuthenticate };
    if (status === 200 && contentType.startsWith('text/event-stream')) {
      this.stream = { parser: new SseParser(this.maxBytes, this.maxDepth), decoder: new TextDecoder() };
    } else {
      this.body = new BoundedJsonBody(this.maxBytes, this.maxDepth);
    }
    return true;
  }

  onData(chunk: Buffer): boolean {
    if (this.done) return false;
    const { stream } = this;
    if (stream) {
      for (const item of stream.parser.push(stream.decoder.decode(chunk, { stream: true }))) {
        this.events.onEvent(item);
        if (this.done) return false;
      }
      return true;
    }
    const broke = this.body?.push(chunk);
    if (broke === undefined) return true;
    this.finish(() => this.events.onBody(this.head, undefined, broke));
    this.abortRequest?.(new Error(broke === 'bytes' ? 'the reply is too large' : 'the reply is nested too deep'));
    return false;
  }

  onComplete(): void {
    if (this.stream) return this.finish(() => this.events.onStreamEnd());
    const text = this.body?.text() ?? '';
    this.finish(() => this.events.onBody(this.head, text));
  }

  onError(error: Error): void {
    this.finish(() => this.events.onError(error));
  }

  private finish(tell: () => void): void {
    if (this.done) return;
    this.done = true;
    this.body = undefined;
    tell();
  }
}
