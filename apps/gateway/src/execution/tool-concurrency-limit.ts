/**
 * How many calls of each tool may be in flight at once, so that one stuck tool cannot hold every
 * connection of its service's pool and starve the service's other tools (SPEC G26). A call over the cap
 * is refused at once rather than queued (docs/adr/0013-cancelled-calls-and-shutdown.md).
 */
export class ToolConcurrencyLimit {
  private readonly inFlight = new Map<string, number>();

  constructor(readonly maxPerTool: number) {}

  /** Takes a slot for `tool`; false when all of its slots are taken. Every true is paired with one release. */
  tryAcquire(tool: string): boolean {
    const count = this.inFlight.get(tool) ?? 0;
    if (count >= this.maxPerTool) return false;
    this.inFlight.set(tool, count + 1);
    return true;
  }

  release(tool: string): void {
    const count = (this.inFlight.get(tool) ?? 1) - 1;
    if (count === 0) this.inFlight.delete(tool);
    else this.inFlight.set(tool, count);
  }
}
