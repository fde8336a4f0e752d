import Redis from 'ioredis';

import { RegistryErrorCode } from '../errors';
import type { CatalogueLog } from '../model/catalogue-log';
import type { CatalogueChange, CatalogueChangeChannel } from './change-channel';

export interface RedisChangeChannelOptions {
  /** `redis://...`; never logged. */
  readonly url: string;
  /** The channel is `{keyPrefix}:catalogue-changed:v1`. */
  readonly keyPrefix: string;
  readonly commandTimeoutMillis: number;
  readonly log: CatalogueLog;
}

/**
 * Catalogue changes over Redis pub/sub. Subscribing takes a connection of its own (a subscribed Redis
 * connection serves nothing else). A message is a hint, never state: a lost one costs the listeners of
 * the replicas that missed it at most their own refresh TTL, and a malformed one is ignored.
 */
export class RedisChangeChannel implements CatalogueChangeChannel {
  private readonly publisher: Redis;
  private subscriber: Redis | undefined;
  private readonly channel: string;

  constructor(private readonly options: RedisChangeChannelOptions) {
    this.channel = `${options.keyPrefix}:catalogue-changed:v1`;
    this.publisher = this.connect();
  }

  publish(change: CatalogueChange): void {
    this.publisher.publish(this.channel, JSON.stringify(change)).catch((error: Error) => this.unavailable(error));
  }

  subscribe(listener: (change: CatalogueChange) => void): void {
    const subscriber = (this.subscriber ??= this.connect());
    // Re-subscribed by ioredis itself after a reconnect (autoResubscribe).
    subscriber.subscribe(this.channel).catch((error: Error) => this.unavailable(error));
    subscriber.on('message', (channel: string, message: string) => {
      if (channel !== this.channel) return;
      const change = parseChange(message);
      if (change) listener(change);
    });
  }

  async close(): Promise<void> {
    this.publisher.disconnect();
    this.subscriber?.disconnect();
  }

  private connect(): Redis {
    const redis = new Redis(this.options.url, {
      commandTimeout: this.options.commandTimeoutMillis,
      connectTimeout: this.options.commandTimeoutMillis,
      retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
    });
    // Outages are the snapshot cache's to log (once per outage); here an error only must not go unhandled.
    redis.on('error', () => undefined);
    return redis;
  }

  private unavailable(error: Error): void {
    this.options.log.warn('catalogue_change_channel_unavailable', {
      code: RegistryErrorCode.SnapshotCacheUnavailable,
      error: error.message,
    });
  }
}

function parseChange(message: string): CatalogueChange | undefined {
  try {
    const value = JSON.parse(message) as Partial<CatalogueChange>;
    return typeof value.replica === 'string' && typeof value.listDigest === 'string'
      ? { replica: value.replica, listDigest: value.listDigest }
      : undefined;
  } catch {
    return undefined;
  }
}
