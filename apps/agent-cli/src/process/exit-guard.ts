import type { ChildProcessRegistry } from '@toolmesh/transport-stdio';

import { ExitCode } from '../cli/exit-codes';
import { PROGRAM } from '../program-name';
import { killMarkedProcesses } from '../tools/descendant-processes';

/** How long a graceful close may take after Ctrl-C / SIGTERM before every server group gets SIGKILL. */
const SIGNAL_CLOSE_BUDGET_MS = 5000;

/**
 * Makes sure no server process outlives the CLI, whichever way the CLI ends:
 * - SIGINT / SIGTERM: close the runtime gracefully (bounded), then SIGKILL what is left; a second
 *   signal skips the wait;
 * - an uncaught exception or unhandled rejection (a bug of ours): report it, SIGKILL every server group;
 * - any exit at all: SIGKILL every server group still tracked, synchronously (`exit` allows nothing else),
 *   and every process that left its group but carries this CLI's mark (tools/descendant-processes.ts).
 */
export class ExitGuard {
  private cleanup: (() => Promise<void>) | undefined;
  private stopping = false;

  constructor(
    private readonly children: ChildProcessRegistry,
    private readonly stderr: (text: string) => void,
  ) {}

  install(): void {
    process.on('exit', () => {
      this.children.signalAll('SIGKILL');
      killMarkedProcesses();
    });
    process.on('SIGINT', () => void this.onSignal('SIGINT', ExitCode.Interrupted));
    process.on('SIGTERM', () => void this.onSignal('SIGTERM', ExitCode.Terminated));
    process.on('uncaughtException', (error) => this.crash(error));
    process.on('unhandledRejection', (reason) => this.crash(reason));
  }

  /** What a signal should close gracefully: the runtime, once it exists. */
  setCleanup(cleanup: (() => Promise<void>) | undefined): void {
    this.cleanup = cleanup;
  }

  private async onSignal(signal: NodeJS.Signals, code: number): Promise<void> {
    if (this.stopping) return this.exit(code);
    this.stopping = true;
    this.stderr(`${PROGRAM}: ${signal} received, closing MCP servers (again to force)\n`);
    const budget = new Promise<void>((resolve) => setTimeout(resolve, SIGNAL_CLOSE_BUDGET_MS).unref());
    await Promise.race([this.cleanup?.().catch(() => undefined), budget]);
    this.exit(code);
  }

  private crash(error: unknown): void {
    const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
    this.stderr(`${PROGRAM}: internal error, please report it:\n${detail}\n`);
    this.exit(ExitCode.Internal);
  }

  private exit(code: number): never {
    this.children.signalAll('SIGKILL'); // the 'exit' handler also sweeps the marked processes
    process.exit(code);
  }
}
