import type { AgentConfig } from '../config/load-config';
import type { AgentRuntime } from '../runtime/agent-runtime';

/** Where the CLI writes; injected so that tests and embedders can capture it. */
export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

/** What a command gets: its arguments, the output switches, and a way to open (and own) a runtime. */
export interface CommandContext {
  readonly io: CliIo;
  readonly args: readonly string[];
  readonly json: boolean;
  readonly config: AgentConfig;
  /** Opens an agent runtime for the configuration; the command closes it when done. */
  openRuntime(): Promise<AgentRuntime>;
}

export type Command = (context: CommandContext) => Promise<number>;

/** Runs `body` with a runtime and always closes it, also when `body` throws. */
export async function withRuntime(context: CommandContext, body: (runtime: AgentRuntime) => Promise<number>): Promise<number> {
  const runtime = await context.openRuntime();
  try {
    return await body(runtime);
  } finally {
    await runtime.close();
  }
}
