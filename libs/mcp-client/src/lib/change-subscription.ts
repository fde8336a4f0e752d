import type { Client, ServerCapabilities, SubscriptionFilter } from '@modelcontextprotocol/client';
import { errorMessage } from '@toolmesh/protocol';

import { type Backoff, delayBefore } from './backoff';

/** Waits before each reopening of a dropped listen stream; the last one repeats for as long as it takes. */
const RELISTEN_BACKOFF: Backoff = { delaysMs: [0, 1000, 2000, 5000, 10_000, 30_000], afterLast: 'repeat' };

export interface ChangeSubscriptionOptions {
  /** The ack timeout of each `subscriptions/listen`. */
  readonly timeoutMs: number;
  /** Reopened after a drop: changes made in the gap were not told, so the lists may be out of date. */
  readonly onReopened: () => void;
  readonly onError: (error: Error) => void;
}

/**
 * A 2026-07-28 server tells its list changes only on a `subscriptions/listen` stream. This keeps one
 * open for the `list_changed` kinds the server advertises, for as long as the client is connected:
 * the notifications on it reach the client's listeners like a 2025 server's (the live tool list of
 * SPEC A12), and a stream that drops (`closed` resolves `remote`: the server restarted, the network
 * broke) is opened again after RELISTEN_BACKOFF (spec: re-listen after an abrupt drop). A server
 * that ends it gracefully (shutdown) is asked again too: the next instance may be up by then.
 */
export class ChangeSubscription {
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private attempt = 0;

  private constructor(
    private readonly sdk: Client,
    private readonly filter: SubscriptionFilter,
    private readonly options: ChangeSubscriptionOptions,
  ) {}

  /** The filter a server's capabilities call for; undefined when it advertises no list changes. */
  static filterFor(capabilities: ServerCapabilities | undefined): SubscriptionFilter | undefined {
    const filter: SubscriptionFilter = {
      ...(capabilities?.tools?.listChanged ? { toolsListChanged: true } : {}),
      ...(capabilities?.prompts?.listChanged ? { promptsListChanged: true } : {}),
      ...(capabilities?.resources?.listChanged ? { resourcesListChanged: true } : {}),
    };
    return Object.keys(filter).length > 0 ? filter : undefined;
  }

  /** Opens the stream; resolves once the server acknowledged it, or once the first attempt failed (then retried). */
  static async open(sdk: Client, filter: SubscriptionFilter, options: ChangeSubscriptionOptions): Promise<ChangeSubscription> {
    const subscription = new ChangeSubscription(sdk, filter, options);
    await subscription.listen(false);
    return subscription;
  }

  /**
   * Stops reopening the stream; the connection is closing, and closing it ends the stream (no
   * `notifications/cancelled` is sent for a connection that goes away anyway).
   */
  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  private async listen(reopening: boolean): Promise<void> {
    try {
      const subscription = await this.sdk.listen(this.filter, { timeout: this.options.timeoutMs });
      if (this.stopped) return void (await subscription.close().catch(() => undefined));
      this.attempt = 0;
      void subscription.closed.then((cause) => {
        if (cause !== 'local') this.scheduleReopen();
      });
      if (reopening) this.options.onReopened();
    } catch (error) {
      if (this.stopped) return;
      this.options.onError(new Error(`could not open the change-notification stream (subscriptions/listen): ${errorMessage(error)}`));
      this.scheduleReopen();
    }
  }

  private scheduleReopen(): void {
    if (this.stopped) return;
    const delay = delayBefore(RELISTEN_BACKOFF, this.attempt);
    this.attempt += 1;
    this.timer = setTimeout(() => void this.listen(true), delay);
    this.timer.unref();
  }
}
