/** The numbers of ToolConcurrencyLimit, from `mcp.toolClient` (docs/configuration.md). */
export interface ToolConcurrencyLimits {
  /** The pool of one tool service origin: calls beyond it would queue in the client. */
  readonly connectionsPerOrigin: number;
  /** Calls of one tool in flight at once. */
  readonly maxConcurrentCallsPerTool: number;
  /** The part of each pool kept for tools that hold few calls: no busy or stuck tool can take it. */
  readonly reservedConnectionsPerOrigin: number;
  /** A tool may draw on its service's reserve only while it holds fewer calls than this. */
  readonly maxReservedCallsPerTool: number;
}

/** Why a call was not admitted: its tool is at its own cap, or its service's pool is taken but for the reserve. */
export type ToolAdmission = 'admitted' | 'tool_at_limit' | 'service_at_limit';

/**
 * How many calls of each tool, and of each tool service, may be in flight at once, so that stuck tools
 * cannot hold every connection of their service's pool and starve its other tools (SPEC G26). A service's
 * calls together take at most `connectionsPerOrigin - reservedConnectionsPerOrigin` connections; the
 * reserve beyond that goes only to tools holding fewer than `maxReservedCallsPerTool` calls, which a tool
 * stuck at its cap never is. A call not admitted is refused at once rather than queued
 * (docs/adr/0013-cancelled-calls-and-shutdown.md).
 */
export class ToolConcurrencyLimit {
  private readonly perTool = new Map<string, number>();
  private readonly perService = new Map<string, number>();
  private readonly shared: number;

  constructor(readonly limits: ToolConcurrencyLimits) {
    this.shared = limits.connectionsPerOrigin - limits.reservedConnectionsPerOrigin;
  }

  /** Takes a slot for `tool` of the service at `origin` when admitted. Every admission is paired with one release. */
  tryAcquire(tool: string, origin: string): ToolAdmission {
    const { maxConcurrentCallsPerTool, maxReservedCallsPerTool, connectionsPerOrigin } = this.limits;
    const ofTool = this.perTool.get(tool) ?? 0;
    const ofService = this.perService.get(origin) ?? 0;
    if (ofTool >= maxConcurrentCallsPerTool) return 'tool_at_limit';
    const fromReserve = ofService >= this.shared;
    if (fromReserve && (ofTool >= maxReservedCallsPerTool || ofService >= connectionsPerOrigin)) return 'service_at_limit';
    this.perTool.set(tool, ofTool + 1);
    this.perService.set(origin, ofService + 1);
    return 'admitted';
  }

  release(tool: string, origin: string): void {
    decrement(this.perTool, tool);
    decrement(this.perService, origin);
  }
}

function decrement(counts: Map<string, number>, key: string): void {
  const count = (counts.get(key) ?? 1) - 1;
  if (count === 0) counts.delete(key);
  else counts.set(key, count);
}
