import { Agent, fetch as undiciFetch } from 'undici';

/**
 * The `fetch` an official SDK is given, over a connection pool of our own: the request timeout bounds the
 * wait for the reply to start and every pause of its stream (an SDK's own timeout ends at the headers), and
 * `close()` lets a finished command exit without waiting for idle sockets.
 */
export class SdkFetch {
  private readonly dispatcher: Agent;

  constructor(requestTimeoutMs: number) {
    this.dispatcher = new Agent({ headersTimeout: requestTimeoutMs, bodyTimeout: requestTimeoutMs });
  }

  readonly fetch = ((input: Parameters<typeof undiciFetch>[0], init?: Parameters<typeof undiciFetch>[1]) =>
    undiciFetch(input, { ...init, dispatcher: this.dispatcher })) as unknown as typeof fetch;

  close(): Promise<void> {
    return this.dispatcher.close();
  }
}

/** Whether an error (or one of its causes, as fetch and the SDKs wrap them) is our pool's timeout. */
export function isRequestTimeout(error: unknown): boolean {
  for (let cause = error, depth = 0; cause && depth < 5; cause = (cause as { cause?: unknown }).cause, depth++) {
    const code = (cause as { code?: unknown }).code;
    if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') return true;
  }
  return false;
}
