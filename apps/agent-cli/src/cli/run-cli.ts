import { parseArgs } from 'node:util';

/** Where the CLI writes; injected so that tests and embedders can capture it. */
export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

/** Exit codes, documented in `--help`. */
export const ExitCode = {
  Ok: 0,
  Failure: 1,
  Usage: 2,
} as const;

export const HELP = `agent-cli - an agent runtime whose MCP client makes any MCP server's tools feel built in

Usage:
  agent-cli [options]

Options:
  -h, --help      Show this help and exit
  -V, --version   Print the version and exit

Exit codes:
  0  success
  1  failure (the message on stderr says what failed)
  2  usage error: unknown command or option
`;

/** Runs the CLI with the given arguments (without `node` and the script) and returns the exit code. */
export function runCli(args: readonly string[], io: CliIo, version: string): number {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...args],
      options: { help: { type: 'boolean', short: 'h' }, version: { type: 'boolean', short: 'V' } },
      allowPositionals: true,
    });
  } catch (error) {
    io.stderr(`agent-cli: ${(error as Error).message}\nRun "agent-cli --help" for usage.\n`);
    return ExitCode.Usage;
  }
  if (parsed.values.version) {
    io.stdout(`${version}\n`);
    return ExitCode.Ok;
  }
  const [command] = parsed.positionals;
  if (command !== undefined && command !== 'help') {
    io.stderr(`agent-cli: unknown command "${command}"\nRun "agent-cli --help" for usage.\n`);
    return ExitCode.Usage;
  }
  io.stdout(HELP);
  return ExitCode.Ok;
}
