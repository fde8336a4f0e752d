import { spawn } from 'node:child_process';

import { childProcesses, type ChildProcessRegistry, minimalEnv, signalGroup } from '@toolmesh/transport-stdio';

import { killMarkedProcesses, markedEnvironment } from '../descendant-processes';
import { errorResult, type ToolResult } from '../tool';
import { BuiltinTool, type BuiltinToolContext, cutToBytes, textResult } from './builtin-tool';

interface BashArgs {
  readonly command: string;
  readonly timeout_ms?: number;
}

const BASH_DEFAULT_TIMEOUT_MS = 120_000;
const BASH_MAX_TIMEOUT_MS = 600_000;
/** Of each of stdout and stderr, at most this much is kept. */
export const BASH_MAX_OUTPUT_BYTES = 256 * 1024;

interface Outcome {
  readonly exitCode: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly timedOut: boolean;
  readonly aborted: boolean;
}

/**
 * `Bash`: one shell command in the working directory, with the minimal environment MCP servers get.
 * The command leads its own process group; on timeout or abort the whole group is killed, and when the
 * command ends, whatever it left running in its group is killed too, so nothing outlives the call.
 */
export class BashTool extends BuiltinTool<BashArgs> {
  readonly name = 'Bash';
  readonly description =
    'Runs a command with /bin/sh -c in the working directory, with a minimal environment (PATH, HOME, locale; no credentials). ' +
    `Times out after timeout_ms (default ${BASH_DEFAULT_TIMEOUT_MS / 1000} s, at most ${BASH_MAX_TIMEOUT_MS / 1000} s), killing everything the command started. ` +
    `Returns stdout, stderr (each at most ${BASH_MAX_OUTPUT_BYTES / 1024} KiB) and the exit code; a non-zero exit is an error result.`;
  readonly inputSchema = {
    type: 'object',
    properties: {
      command: { type: 'string', minLength: 1, description: 'The shell command.' },
      timeout_ms: {
        type: 'integer',
        minimum: 1,
        maximum: BASH_MAX_TIMEOUT_MS,
        description: `Milliseconds before the command is killed. Default ${BASH_DEFAULT_TIMEOUT_MS}.`,
      },
    },
    required: ['command'],
    additionalProperties: false,
  } as const;
  readonly sideEffects = { level: 'mutating', destructive: true, basis: 'declared' } as const;
  // A command reaches what the user can: any file, the network. The workspace binds the file tools only.
  override readonly openWorld = true;

  constructor(
    context: BuiltinToolContext,
    private readonly processes: ChildProcessRegistry = childProcesses,
  ) {
    super(context);
  }

  /** Numbers the calls, so each call's processes carry a mark of their own (descendant-processes.ts). */
  private calls = 0;

  protected async run({ command, timeout_ms: timeoutMs = BASH_DEFAULT_TIMEOUT_MS }: BashArgs, signal?: AbortSignal): Promise<ToolResult> {
    if (signal?.aborted) return errorResult('Bash: cancelled before the command started');
    const outcome = await this.spawnShell(command, timeoutMs, signal);
    const text = [
      outcome.stdout.replace(/\n$/, ''),
      ...(outcome.stderr === '' ? [] : [`[stderr]\n${outcome.stderr.replace(/\n$/, '')}`]),
      outcome.timedOut
        ? `[timed out after ${timeoutMs} ms; the command's process group was killed]`
        : outcome.aborted
          ? "[cancelled; the command's process group was killed]"
          : outcome.exitCode === null
            ? `[killed by ${outcome.signal}]`
            : `[exit code ${outcome.exitCode}]`,
    ]
      .filter((part) => part !== '')
      .join('\n');
    const isError = outcome.timedOut || outcome.aborted || outcome.exitCode !== 0;
    return { ...textResult(text, outcome), isError };
  }

  private spawnShell(command: string, timeoutMs: number, signal?: AbortSignal): Promise<Outcome> {
    const scope = `bash-${(this.calls += 1)}`;
    return new Promise((resolve, reject) => {
      const child = spawn('/bin/sh', ['-c', command], {
        cwd: this.context.workingDirectory,
        env: markedEnvironment(minimalEnv(), scope),
        detached: true, // its own process group, so that killing the group reaches grandchildren
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child.once('spawn', () => this.processes.track(child)); // a child that never started has nothing to kill
      const stdout = collector();
      const stderr = collector();
      child.stdout.on('data', stdout.add);
      child.stderr.on('data', stderr.add);
      let timedOut = false;
      let aborted = false;
      const timer = setTimeout(() => {
        timedOut = true;
        signalGroup(child, 'SIGKILL');
      }, timeoutMs);
      const onAbort = () => {
        aborted = true;
        signalGroup(child, 'SIGKILL');
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      // Background processes the command left behind would hold the pipes open: end them with it, in its
      // group or, after a setsid, wherever its mark is.
      child.once('exit', () => {
        signalGroup(child, 'SIGKILL');
        killMarkedProcesses(scope);
      });
      child.once('error', (error) => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        reject(new Error(`could not start /bin/sh in ${this.context.workingDirectory}: ${error.message}`));
      });
      child.once('close', (exitCode, exitSignal) => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        resolve({ exitCode, signal: exitSignal, stdout: stdout.text(), stderr: stderr.text(), timedOut, aborted });
      });
    });
  }
}

/** Keeps the first BASH_MAX_OUTPUT_BYTES of a stream and notes how much more there was. */
function collector(): { add: (chunk: Buffer) => void; text: () => string } {
  const chunks: Buffer[] = [];
  let kept = 0;
  let total = 0;
  return {
    add: (chunk) => {
      total += chunk.length;
      if (kept >= BASH_MAX_OUTPUT_BYTES) return;
      chunks.push(chunk);
      kept += chunk.length;
    },
    text: () => {
      const { text, cut } = cutToBytes(Buffer.concat(chunks).toString('utf8'), BASH_MAX_OUTPUT_BYTES);
      return cut || total > kept ? `${text}\n[output cut at ${BASH_MAX_OUTPUT_BYTES / 1024} KiB of ${total} bytes]` : text;
    },
  };
}
