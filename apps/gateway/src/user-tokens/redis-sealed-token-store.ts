import { randomUUID } from 'node:crypto';

import type { KeyValueConnection } from '@toolmesh/registry';

import { GatewayError, GatewayErrorCode } from '../errors/gateway-errors';
import type { SealedTokenStore } from './sealed-token-store';

/**
 * The vault's entries in Redis, shared by the replicas: a consent completed on one serves calls on all.
 * Keys are `<mcp.redis.keyPrefix>:user-tokens:v1:<keyed name>` and values compact JWEs, so Redis holds no
 * subject and no token in clear. A refresh lease is a key of its own, taken only where absent; it expires
 * by itself should its holder die mid-refresh. Redis failing throws `gateway.user_tokens_unavailable`: a
 * call that needs the user's token fails saying so, and nothing is forgotten.
 */
export class RedisSealedTokenStore implements SealedTokenStore {
  /** Each lease this replica holds, by its value: released only when still its own. */
  private readonly held = new Map<string, string>();

  constructor(
    private readonly redis: KeyValueConnection,
    private readonly keyPrefix: string,
  ) {}

  get(name: string): Promise<string | undefined> {
    return this.guard(this.redis.get(this.key(name)));
  }

  set(name: string, sealed: string, ttlMillis: number): Promise<void> {
    return this.guard(this.redis.set(this.key(name), sealed, ttlMillis));
  }

  async delete(name: string): Promise<boolean> {
    const present = (await this.get(name)) !== undefined;
    if (present) await this.guard(this.redis.delete(this.key(name)));
    return present;
  }

  async lease(name: string, millis: number): Promise<boolean> {
    const holder = randomUUID();
    const taken = await this.guard(this.redis.setIfAbsent(this.leaseKey(name), holder, millis));
    if (taken) this.held.set(name, holder);
    return taken;
  }

  async release(name: string): Promise<void> {
    const holder = this.held.get(name);
    this.held.delete(name);
    // Read, then delete: a lease that expired and was taken by another replica meanwhile is left to it.
    if (holder !== undefined && (await this.guard(this.redis.get(this.leaseKey(name)))) === holder)
      await this.guard(this.redis.delete(this.leaseKey(name)));
  }

  close(): void {
    this.redis.close();
  }

  private key(name: string): string {
    return `${this.keyPrefix}:user-tokens:v1:${name}`;
  }

  private leaseKey(name: string): string {
    return `${this.keyPrefix}:user-tokens:v1:lease:${name}`;
  }

  private guard<T>(command: Promise<T>): Promise<T> {
    return command.catch((error: unknown) => {
      throw new GatewayError(
        GatewayErrorCode.UserTokensUnavailable,
        `users' tokens cannot be read from or written to Redis (${error instanceof Error ? error.message : String(error)}): calls that act as the user fail until it answers`,
      );
    });
  }
}
