import type { Approval } from './definition-policy';

/**
 * Where the approvals of pinned definitions live (ADR 0029): this replica's memory, or Redis shared by the
 * replicas when `mcp.redis.url` is set. Read once per refresh of a reviewed bundle, never per call.
 */
export interface ApprovalStore {
  /** The stored approvals of a bundle's tools, by tool name as the gateway serves it. */
  read(bundle: string): Promise<ReadonlyMap<string, Approval>>;
  /**
   * Stores the tool's approval and answers the one now stored: with `onlyIfAbsent` (a first sighting), an
   * approval already there (another replica's first sighting) is kept and answered instead.
   */
  write(bundle: string, tool: string, approval: Approval, onlyIfAbsent: boolean): Promise<Approval>;
}

/** Approvals in this process's memory: for one replica, or until Redis is configured (ADR 0029). */
export class MemoryApprovalStore implements ApprovalStore {
  private readonly bundles = new Map<string, Map<string, Approval>>();

  read(bundle: string): Promise<ReadonlyMap<string, Approval>> {
    return Promise.resolve(this.bundles.get(bundle) ?? new Map());
  }

  write(bundle: string, tool: string, approval: Approval, onlyIfAbsent: boolean): Promise<Approval> {
    let tools = this.bundles.get(bundle);
    if (tools === undefined) this.bundles.set(bundle, (tools = new Map()));
    const stored = tools.get(tool);
    if (onlyIfAbsent && stored !== undefined) return Promise.resolve(stored);
    tools.set(tool, approval);
    return Promise.resolve(approval);
  }
}
