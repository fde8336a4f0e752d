import type { Approver } from '../agent/approval/approver';
import type { SideEffectCap } from '../agent/approval/side-effect-cap';
import type { AgentConfig } from '../config/load-config';
import type { AgentRuntime } from '../runtime/agent-runtime';
import type { Terminal } from './terminal';

/** Where the CLI writes, and the person at the terminal if there is one; injected so tests can drive it. */
export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  readonly terminal?: Terminal;
  /** Where `chat` reads its lines when there is no terminal (piped input). */
  readonly stdin?: NodeJS.ReadableStream;
}

/** The approval gate's settings from the command line: `--max-side-effect` and who answers its questions. */
export interface GateSettings {
  readonly cap: SideEffectCap;
  readonly approver: Approver;
}

/** What `run` and `chat` take beyond the configuration: the CLI's overrides and the process's surroundings. */
export interface AgentOptions {
  /** `--model`, `--max-turns`, `--transcript <file>`. */
  readonly model?: string;
  readonly maxTurns?: number;
  readonly transcript?: string;
  /** Where the API key is looked up, by the name `llm.apiKeyEnv` gives. */
  readonly env: NodeJS.ProcessEnv;
  readonly workingDirectory: string;
  /** Aborted on Ctrl-C / SIGTERM: ends the model request or tool call in flight. */
  readonly signal?: AbortSignal;
  /** `run --leave-tasks`: end when the model answers, with tasks its calls became still running at their servers. */
  readonly leaveTasks?: boolean;
}

/** Options only some commands read (`watch --timeout <ms> --count <n>`, `tools --approve`), as given on the command line. */
export interface CommandOptions {
  readonly timeout?: string;
  readonly count?: string;
  /** `tools --approve <server>[/<tool>]`: the changed definitions approved (the approver acts; `tools` checks each names a tool). */
  readonly approve?: readonly string[];
}

/** What a command gets: its arguments, the output switches, and a way to open (and own) a runtime. */
export interface CommandContext {
  readonly io: CliIo;
  readonly args: readonly string[];
  readonly json: boolean;
  readonly config: AgentConfig;
  readonly gate: GateSettings;
  readonly agent: AgentOptions;
  readonly options: CommandOptions;
  /**
   * Opens an agent runtime for the configuration; the command closes it when done. `servers`: connect
   * only these (a command waits only for the servers it needs); default all.
   */
  openRuntime(servers?: readonly string[]): Promise<AgentRuntime>;
}

export type Command = (context: CommandContext) => Promise<number>;

/** Runs `body` with a runtime (of only `servers`, when given) and always closes it, also when `body` throws. */
export async function withRuntime(
  context: CommandContext,
  body: (runtime: AgentRuntime) => Promise<number>,
  servers?: readonly string[],
): Promise<number> {
  const runtime = await context.openRuntime(servers);
  try {
    return await body(runtime);
  } finally {
    await runtime.close();
  }
}
