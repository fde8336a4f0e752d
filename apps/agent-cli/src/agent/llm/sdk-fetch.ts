import { Agent, fetch as undiciFetch } from 'undici';

import type { ModelSettings } from './model-settings';

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

/**
 * What the Anthropic and OpenAI SDK clients are built with: no retries of their own (the agent loop
 * decides what to retry), the request timeout, and `fetch` over `http`'s pool.
 */
export function sdkClientOptions(settings: ModelSettings, http: SdkFetch) {
  return { baseURL: settings.baseUrl, maxRetries: 0, timeout: settings.requestTimeoutMs, fetch: http.fetch };
}
