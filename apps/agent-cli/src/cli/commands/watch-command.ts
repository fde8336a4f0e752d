import { MAX_WAIT_MS } from '@toolmesh/rewake-bridge';

import { PROGRAM } from '../../program-name';
import { type Command, withRuntime } from '../command-context';
import { ExitCode } from '../exit-codes';

/**
 * `watch`: connects the configured servers and prints every event their notifications become (the same
 * events WaitForEvent wakes on) as one JSON line on stdout, until --count events, --timeout ms, or
 * Ctrl-C / SIGTERM (the exit guard closes the runtime, which ends the wait).
 */
export const watchCommand: Command = async (context) => {
  const { io } = context;
  const usage = (problem: string) => {
    io.stderr(`${PROGRAM} watch: ${problem}\nRun "${PROGRAM} watch --help" for usage.\n`);
    return ExitCode.Usage;
  };
  if (context.args.length > 0) return usage(`unexpected argument "${context.args[0]}"`);
  const timeoutMs = positiveInteger(context.options.timeout, MAX_WAIT_MS);
  if (timeoutMs === null)
    return usage(`--timeout must be a whole number of milliseconds from 1 to ${MAX_WAIT_MS}, not "${context.options.timeout}"`);
  const count = positiveInteger(context.options.count, Number.MAX_SAFE_INTEGER);
  if (count === null) return usage(`--count must be a positive whole number, not "${context.options.count}"`);
  if (context.config.servers.length === 0) {
    io.stderr(
      `agent-cli watch: no MCP servers configured in ${context.config.file}, so there is nothing to watch; add mcp.servers (see docs/agent-cli.md)\n`,
    );
    return ExitCode.Config;
  }

  return withRuntime(context, async (runtime) => {
    const connected = runtime.servers.filter((s) => s.state === 'connected').map((s) => s.name);
    if (connected.length === 0) {
      io.stderr(`${PROGRAM} watch: no MCP server could be connected, so there is nothing to watch\n`);
      return ExitCode.ServerUnavailable;
    }
    const until = [count === undefined ? '' : `${count} event(s)`, timeoutMs === undefined ? '' : `${timeoutMs} ms`]
      .filter(Boolean)
      .join(' or ');
    io.stderr(`watching ${connected.join(', ')} for events${until ? ` (stopping after ${until})` : ''}; Ctrl-C to stop\n`);
    const deadline = timeoutMs === undefined ? undefined : Date.now() + timeoutMs;
    for (let printed = 0; count === undefined || printed < count; printed++) {
      const outcome = await runtime.events.waitFor({}, deadline === undefined ? undefined : Math.max(0, deadline - Date.now()));
      // A timeout is the --timeout; `closed` is a signal closing the runtime.
      if (outcome.kind !== 'event') break;
      io.stdout(`${JSON.stringify(outcome.event)}\n`);
    }
    return runtime.servers.some((s) => s.state === 'failed') ? ExitCode.ServerUnavailable : ExitCode.Ok;
  });
};

/** The option's value as a whole number from 1 to `max`; undefined when not given, null when invalid. */
function positiveInteger(value: string | undefined, max: number): number | undefined | null {
  if (value === undefined) return undefined;
  const number = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  return Number.isSafeInteger(number) && number >= 1 && number <= max ? number : null;
}
