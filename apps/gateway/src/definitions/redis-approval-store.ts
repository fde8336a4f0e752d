import type { KeyValueConnection } from '@toolmesh/registry';

import { GatewayError, GatewayErrorCode } from '../errors/gateway-errors';
import type { ApprovalStore } from './approval-store';
import type { Approval } from './definition-policy';

const FORMAT = 'toolmesh.definition-approvals.v1';
/** An approval record outlives any refresh interval by far; each write, and a read a day after the last one, renews it. */
const RECORD_MILLIS = 400 * 24 * 3_600_000;
const RENEW_AFTER_MILLIS = 24 * 3_600_000;

interface StoredApprovals {
  readonly format: typeof FORMAT;
  readonly writtenAt: number;
  readonly tools: Readonly<Record<string, Approval>>;
}

/**
 * Approvals in Redis, shared by the replicas (ADR 0029): one JSON record per bundle, its tools' last approved
 * hash and definition, so that a replica started after a change was held serves the approved definition it
 * never saw, and an approval made on one replica's port is followed by the others at their next refresh of
 * the bundle. It fails closed: Redis unreachable or a record it cannot read throws, and the bundle's refresh
 * fails, its last snapshot kept (trust on first use must never approve a change because Redis was down).
 */
export class RedisApprovalStore implements ApprovalStore {
  constructor(
    private readonly redis: KeyValueConnection,
    private readonly keyPrefix: string,
    private readonly now: () => number = Date.now,
  ) {}

  async read(bundle: string): Promise<ReadonlyMap<string, Approval>> {
    const stored = await this.record(bundle);
    if (stored !== undefined && this.now() - stored.writtenAt > RENEW_AFTER_MILLIS)
      await this.save(bundle, new Map(Object.entries(stored.tools)));
    return new Map(Object.entries(stored?.tools ?? {}));
  }

  async write(bundle: string, tool: string, approval: Approval, onlyIfAbsent: boolean): Promise<Approval> {
    // Read, change, write: two replicas' first sightings at once both write what the same server listed.
    const tools = new Map(Object.entries((await this.record(bundle))?.tools ?? {}));
    const stored = tools.get(tool);
    if (onlyIfAbsent && stored !== undefined) return stored;
    tools.set(tool, approval);
    await this.save(bundle, tools);
    return approval;
  }

  close(): void {
    this.redis.close();
  }

  private async record(bundle: string): Promise<StoredApprovals | undefined> {
    const text = await this.redis.get(this.key(bundle)).catch((error: unknown) => {
      throw unavailable(bundle, error instanceof Error ? error.message : String(error));
    });
    if (text === undefined) return undefined;
    let stored: unknown;
    try {
      stored = JSON.parse(text);
    } catch {
      throw unavailable(bundle, 'its record is not JSON');
    }
    if (!isApprovals(stored)) throw unavailable(bundle, `its record is not a ${FORMAT} record`);
    return stored;
  }

  private async save(bundle: string, tools: ReadonlyMap<string, Approval>): Promise<void> {
    const record: StoredApprovals = { format: FORMAT, writtenAt: this.now(), tools: Object.fromEntries(tools) };
    await this.redis.set(this.key(bundle), JSON.stringify(record), RECORD_MILLIS).catch((error: unknown) => {
      throw unavailable(bundle, error instanceof Error ? error.message : String(error));
    });
  }

  private key(bundle: string): string {
    return `${this.keyPrefix}:definition-approvals:v1:${bundle}`;
  }
}

function isApprovals(value: unknown): value is StoredApprovals {
  const stored = value as Partial<StoredApprovals> | null;
  if (typeof stored !== 'object' || stored === null || stored.format !== FORMAT || typeof stored.writtenAt !== 'number') return false;
  const tools = stored.tools as Record<string, Partial<Approval>> | undefined;
  return (
    typeof tools === 'object' &&
    tools !== null &&
    Object.values(tools).every(
      (approval) =>
        typeof approval?.hash === 'string' &&
        (approval.definition === undefined || (typeof approval.definition === 'object' && approval.definition !== null)),
    )
  );
}

function unavailable(bundle: string, problem: string): GatewayError {
  return new GatewayError(
    GatewayErrorCode.ApprovalsUnavailable,
    `the approved definitions of bundle ${bundle} cannot be read from Redis (${problem}): its tools stay as they were until they can`,
  );
}
