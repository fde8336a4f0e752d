import type Redis from 'ioredis';

import { RegistryErrorCode } from '../errors';
import type { CatalogueLog } from '../model/catalogue-log';
import { openRedis } from './open-redis';
import type { SnapshotCache } from './snapshot-cache';

export interface RedisSnapshotCacheOptions {
  /** `redis://[:password@]host:port[/db]`; never logged. */
  readonly url: string;
  /** Keys are `{keyPrefix}:identity:v2:route:{routeToken}` (SPEC G16). */
  readonly keyPrefix: string;
  /** The portal registry's key, apart from the route keys. */
  readonly portalRegistryKey: string;
  /** Longest wait for one command, connecting included, before it counts as a miss. */
  readonly commandTimeoutMillis: number;
  readonly log: CatalogueLog;
}

/**
 * Redis as the snapshot cache. Commands wait in the offline queue while (re)connecting and give up after
 * the command timeout, so a Redis that is down costs a refresh at most that long and never a request.
 * Availability is logged when it changes, not per command, whatever the reconnect loop does.
 */
export class RedisSnapshotCache implements SnapshotCache {
  private readonly redis: Redis;
  private available: boolean | undefined;
  /**
   * Counts the outages seen. A reply to a command sent before the latest one is stale news, not a sign of
   * recovery: when Redis dies, replies already on their way still arrive after the connection's error.
   */
  private outages = 0;

  constructor(private readonly options: RedisSnapshotCacheOptions) {
    this.redis = openRedis(
      { url: options.url, connectTimeoutMillis: options.commandTimeoutMillis, commandTimeoutMillis: options.commandTimeoutMillis },
      { queueWhileDisconnected: true, onError: (error) => this.markUnavailable(error) },
    );
  }

  readRoute(routeToken: string): Promise<unknown> {
    return this.read(this.routeKey(routeToken));
  }

  writeRoute(routeToken: string, document: unknown): Promise<void> {
    return this.write(this.routeKey(routeToken), document);
  }

  readPortalRegistry(): Promise<unknown> {
    return this.read(this.options.portalRegistryKey);
  }

  writePortalRegistry(document: unknown): Promise<void> {
    return this.write(this.options.portalRegistryKey, document);
  }

  async close(): Promise<void> {
    this.redis.disconnect();
  }

  isAvailable(): boolean | undefined {
    return this.available;
  }

  private routeKey(routeToken: string): string {
    return `${this.options.keyPrefix}:identity:v2:route:${routeToken}`;
  }

  private async read(key: string): Promise<unknown> {
    const sentDuring = this.outages;
    let text: string | null;
    try {
      text = await this.redis.get(key);
    } catch (error) {
      this.markUnavailable(error as Error);
      return undefined;
    }
    this.markAvailable(sentDuring);
    if (text === null) return undefined;
    try {
      return JSON.parse(text);
    } catch {
      this.options.log.warn('snapshot_cache_entry_invalid', { code: RegistryErrorCode.SnapshotCacheInvalid, key, reason: 'not JSON' });
      return undefined;
    }
  }

  private async write(key: string, document: unknown): Promise<void> {
    const sentDuring = this.outages;
    try {
      await this.redis.set(key, JSON.stringify(document));
      this.markAvailable(sentDuring);
    } catch (error) {
      this.markUnavailable(error as Error);
    }
  }

  private markAvailable(sentDuring: number): void {
    if (sentDuring !== this.outages) return;
    if (this.available === false) this.options.log.info('snapshot_cache_available', {});
    this.available = true;
  }

  private markUnavailable(error: Error): void {
    if (this.available === false) return;
    this.available = false;
    this.outages += 1;
    this.options.log.warn('snapshot_cache_unavailable', { code: RegistryErrorCode.SnapshotCacheUnavailable, reason: error.message });
  }
}
