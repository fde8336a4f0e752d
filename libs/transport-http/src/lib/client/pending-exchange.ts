import type { Cancellation, InboundResponse, JSONRPCMessage, RequestId } from '@toolmesh/protocol';

import type { ExchangeReply } from './exchange-reply';

/**
 * One exchange waiting for its answer (`StreamableHttpClientTransport.exchange`): settled once, by the
 * answer or by a failure, and a failure that comes first (the cancellation, `close`, a lost stream) also
 * ends the request still running. It is in `open` and follows `cancellation` until it is settled, and
 * leaves both itself: the exchange need not wait in an async function to clean up after it.
 */
export class PendingExchange {
  readonly answered: Promise<InboundResponse>;
  /** The request's reply once it is dispatched, to be stopped when the exchange fails first. */
  reply: ExchangeReply | undefined;
  /** The refusals for credentials handed over so far: a 401 once, a 403 for more scope a few times. */
  refusals: { unauthorized: number; stepUps: number } | undefined;
  private resolve!: (answer: InboundResponse) => void;
  private reject!: (error: Error) => void;
  private settled = false;

  constructor(
    readonly id: RequestId,
    private readonly route: ((message: JSONRPCMessage) => boolean) | undefined,
    private readonly open: Set<PendingExchange>,
    private readonly cancellation: Cancellation | undefined,
  ) {
    this.answered = new Promise((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
    open.add(this);
    cancellation?.onAbort(this.fail);
  }

  get isSettled(): boolean {
    return this.settled;
  }

  /** Each message of the request's stream: its answer settles the exchange, the others go to the route. */
  readonly take = (message: JSONRPCMessage): boolean => {
    if (isAnswerTo(message, this.id)) {
      this.answer(message);
      return true;
    }
    return this.route?.(message) ?? false;
  };

  answer(message: InboundResponse): void {
    if (this.settled) return;
    this.settle();
    this.resolve(message);
  }

  readonly fail = (error: Error): void => {
    if (this.settled) return;
    this.settle();
    this.reply?.stop(error);
    this.reject(error);
  };

  private settle(): void {
    this.settled = true;
    this.open.delete(this);
    this.cancellation?.offAbort(this.fail);
  }
}

/** A response (result or error) to request `id`. */
export function isAnswerTo(message: JSONRPCMessage, id: RequestId): message is InboundResponse {
  return 'id' in message && !('method' in message) && message.id === id;
}
