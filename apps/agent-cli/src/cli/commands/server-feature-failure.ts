import { errorMessage } from '@toolmesh/protocol';

import { AgentError, AgentErrorCode } from '../../errors/agent-errors';
import { PROGRAM } from '../../program-name';
import type { CliIo } from '../command-context';
import { ExitCode } from '../exit-codes';

const EXIT_CODES: Partial<Record<AgentErrorCode, number>> = {
  [AgentErrorCode.ServerNotFound]: ExitCode.Usage,
  [AgentErrorCode.PromptNotFound]: ExitCode.Usage,
  [AgentErrorCode.InvalidPromptArguments]: ExitCode.Usage,
  [AgentErrorCode.ServerUnavailable]: ExitCode.ServerUnavailable,
};

/**
 * Reports a failure of `resources` or `prompts` and returns its exit code: a name typed wrong is a usage
 * error, a server that is down is 4, and what the server answered (an unknown URI, its own error) is 1.
 */
export function reportFeatureFailure(io: CliIo, command: string, error: unknown): number {
  if (error instanceof AgentError) {
    io.stderr(`${PROGRAM} ${command}: ${error.message} [${error.code}]\n`);
    return EXIT_CODES[error.code] ?? ExitCode.Failure;
  }
  io.stderr(`${PROGRAM} ${command}: the server answered with an error: ${errorMessage(error)}\n`);
  return ExitCode.Failure;
}

/** Lines on stderr for the servers that could not list, under a listing on stdout. */
export function reportListingFailures(io: CliIo, what: string, failures: ReadonlyArray<{ server: string; error: string }>): void {
  for (const f of failures) io.stderr(`warning: MCP server "${f.server}" could not list its ${what}: ${f.error}\n`);
}
