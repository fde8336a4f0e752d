import Redis from 'ioredis';

import { RegistryErrorCode } from '../errors';
import type { CatalogueLog } from '../model/catalogue-log';
import type { CatalogueChange, CatalogueChangeChannel, ElicitationCompletion, TaskStatusChange } from './change-channel';

export interface RedisChangeChannelOptions {
  /** `redis://...`; never logged. */
  readonly url: string;
  /** The channels are `{keyPrefix}:catalogue-changed:v1`, `{keyPrefix}:elicitation-completed:v1` and `{keyPrefix}:task-status:v1`. */
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
  private readonly completions: string;
  private readonly taskStatus: string;

  constructor(private readonly options: RedisChangeChannelOptions) {
    this.channel = `${options.keyPrefix}:catalogue-changed:v1`;
    this.completions = `${options.keyPrefix}:elicitation-completed:v1`;
    this.taskStatus = `${options.keyPrefix}:task-status:v1`;
    this.publisher = this.connect();
  }

  publish(change: CatalogueChange): void {
    this.send(this.channel, change);
  }

  subscribe(listener: (change: CatalogueChange) => void): void {
    this.listen(this.channel, parseChange, listener);
  }

  publishCompletion(completion: ElicitationCompletion): void {
    this.send(this.completions, completion);
  }

  subscribeCompletions(listener: (completion: ElicitationCompletion) => void): void {
    this.listen(this.completions, parseCompletion, listener);
  }

  publishTaskStatus(change: TaskStatusChange): void {
    this.send(this.taskStatus, change);
  }

  subscribeTaskStatus(listener: (change: TaskStatusChange) => void): void {
    this.listen(this.taskStatus, parseTaskStatus, listener);
  }

  private send(channel: string, message: object): void {
    this.publisher.publish(channel, JSON.stringify(message)).catch((error: Error) => this.unavailable(error));
  }

  /** On the one subscribing connection, shared by every channel. */
  private listen<T>(name: string, parse: (message: string) => T | undefined, listener: (message: T) => void): void {
    const subscriber = (this.subscriber ??= this.connect());
    // Re-subscribed by ioredis itself after a reconnect (autoResubscribe).
    subscriber.subscribe(name).catch((error: Error) => this.unavailable(error));
    subscriber.on('message', (channel: string, message: string) => {
      if (channel !== name) return;
      const parsed = parse(message);
      if (parsed) listener(parsed);
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
  const value = parsed<CatalogueChange>(message);
  return typeof value?.replica === 'string' && typeof value.listDigest === 'string'
    ? { replica: value.replica, listDigest: value.listDigest }
    : undefined;
}

function parseCompletion(message: string): ElicitationCompletion | undefined {
  const value = parsed<ElicitationCompletion>(message);
  return typeof value?.replica === 'string' && typeof value.subjectDigest === 'string' && typeof value.elicitationId === 'string'
    ? { replica: value.replica, subjectDigest: value.subjectDigest, elicitationId: value.elicitationId }
    : undefined;
}

function parseTaskStatus(message: string): TaskStatusChange | undefined {
  const value = parsed<TaskStatusChange>(message);
  return typeof value?.replica === 'string' && typeof value.owner === 'string' && typeof value.taskId === 'string'
    ? { replica: value.replica, owner: value.owner, taskId: value.taskId }
    : undefined;
}

function parsed<T>(message: string): Partial<T> | undefined {
  try {
    const value: unknown = JSON.parse(message);
    return typeof value === 'object' && value !== null ? (value as Partial<T>) : undefined;
  } catch {
    return undefined;
  }
}
