import { PROGRAM } from '../program-name';

/** Exit codes, documented in `--help` and docs/agent-cli.md. */
export const ExitCode = {
  Ok: 0,
  /** The tool returned an error result, or another failure; stderr says what. */
  Failure: 1,
  /** Unknown command, option or tool, or arguments that are not a JSON object. */
  Usage: 2,
  /** The configuration file is missing or invalid. */
  Config: 3,
  /** One or more servers could not be connected (the others were still used). */
  ServerUnavailable: 4,
  /** A tool call was refused: above --max-side-effect, denied by a hook, or nobody to approve it. */
  Denied: 5,
  /** `run` / `chat`: the model was still asking for tools when the max-turns guard stopped it. */
  MaxTurns: 6,
  /** A bug in agent-cli: an uncaught exception. */
  Internal: 70,
  /** Interrupted by SIGINT (Ctrl-C) or ended by SIGTERM: 128 + the signal number, as shells report it. */
  Interrupted: 130,
  Terminated: 143,
} as const;

export const EXIT_CODES_HELP = `Exit codes:
  0    success
  1    the tool returned an error result, the LLM request failed, or another failure (stderr says what)
  2    usage error: unknown command, option or tool, or arguments that are not a JSON object
  3    configuration error: the file is missing or invalid (stderr names the file and the setting)
  4    one or more MCP servers could not be connected (the others were used)
  5    a tool call was refused: above --max-side-effect, denied by a hook or the user, or no terminal
       to ask on and no --yes (run: every tool call the model asked for was refused)
  6    run: the max-turns guard stopped the agent (llm.maxTurns / --max-turns) before the model finished
  70   internal error in ${PROGRAM} (please report it)
  130  interrupted (Ctrl-C); 143 terminated (SIGTERM)
`;
