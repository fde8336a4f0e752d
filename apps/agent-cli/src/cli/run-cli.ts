/**
 * The command line: parses it, reads the configuration, picks the approval gate, and makes the production
 * choices the runtime factory takes (MCP client factory, warnings on stderr, startup progress). What a
 * runtime and a session wire is in runtime/runtime-factory.ts and cli/agent-session.ts.
 */
import { statSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';

import { errorMessage } from '@toolmesh/protocol';

import { FLAG_APPROVER, NON_INTERACTIVE_APPROVER } from '../agent/approval/approver';
import { isSideEffectCap, SIDE_EFFECT_CAPS } from '../agent/approval/side-effect-cap';
import { TerminalApprover } from '../agent/approval/terminal-approver';
import { type AgentConfig, DEFAULT_CONFIG_FILE } from '../config/load-config';
import { AgentError, AgentErrorCode } from '../errors/agent-errors';
import { TransportClientFactory } from '../mcp/client-factory';
import { cliOAuthHost } from '../mcp/oauth/cli-oauth-host';
import { userConfigDirectory } from '../mcp/oauth/credential-store';
import { serverOAuth } from '../mcp/oauth/server-oauth';
import { PinStore } from '../mcp/pins/pin-store';
import { ToolPins } from '../mcp/pins/tool-pins';
import { PROGRAM } from '../program-name';
import type { AgentRuntime } from '../runtime/agent-runtime';
import { createAgentRuntime } from '../runtime/runtime-factory';
import { Workspace } from '../tools/builtin/workspace';
import { createClientFeatures } from './client-features-wiring';
import type { CliIo, Command } from './command-context';
import { callCommand } from './commands/call-command';
import { chatCommand } from './commands/chat-command';
import { mcpCommand } from './commands/mcp-command';
import { promptsCommand } from './commands/prompts-command';
import { resourcesCommand } from './commands/resources-command';
import { runCommand } from './commands/run-command';
import { serveCommand } from './commands/serve-command';
import { serversCommand } from './commands/servers-command';
import { skillsCommand } from './commands/skills-command';
import { tasksCommand } from './commands/tasks-command';
import { toolsCommand } from './commands/tools-command';
import { watchCommand } from './commands/watch-command';
import { driftApprover } from './drift-approval';
import { ExitCode } from './exit-codes';
import { COMMAND_HELP, HELP } from './help';
import { progressReporter } from './progress-reporter';
import { withSessionServers } from './session-servers';
import { terminalSafeIo } from './terminal';
import { loadLayeredConfig } from './user-config';

export type { CliIo };
export { ExitCode, HELP };

const COMMANDS: Readonly<Record<string, Command>> = {
  servers: serversCommand,
  tools: toolsCommand,
  call: callCommand,
  run: runCommand,
  chat: chatCommand,
  watch: watchCommand,
  resources: resourcesCommand,
  prompts: promptsCommand,
  skills: skillsCommand,
  serve: serveCommand,
  tasks: tasksCommand,
};

export interface CliEnvironment {
  readonly version: string;
  readonly cwd?: string;
  readonly env?: NodeJS.ProcessEnv;
  /** Told about each runtime the CLI opens, so signal handlers can close it (see ExitGuard). */
  readonly onRuntime?: (runtime: AgentRuntime | undefined) => void;
  /** Aborted on Ctrl-C / SIGTERM, so `run` and `chat` end the request or tool call in flight. */
  readonly signal?: AbortSignal;
}

/** The command line's options; `mcp` parses its own. */
const OPTIONS = {
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'V' },
  json: { type: 'boolean' },
  config: { type: 'string', short: 'c' },
  workspace: { type: 'string', short: 'w' },
  yes: { type: 'boolean', short: 'y' },
  'max-side-effect': { type: 'string' },
  model: { type: 'string' },
  'max-turns': { type: 'string' },
  transcript: { type: 'string' },
  timeout: { type: 'string' },
  count: { type: 'string' },
  'mcp-server': { type: 'string', multiple: true },
  approve: { type: 'string', multiple: true },
  'approve-changed-tools': { type: 'boolean' },
  'leave-tasks': { type: 'boolean' },
} as const;

/** Runs the CLI with the given arguments (without `node` and the script) and resolves to the exit code. */
export async function runCli(args: readonly string[], rawIo: CliIo, environment: CliEnvironment): Promise<number> {
  // `mcp` edits the configuration file, with options of its own (-e, -H, --transport, as claude mcp has);
  // the options given before it (--config f.yaml mcp add ...) are its own too, and it refuses those it has not.
  const mcpAt = commandPosition(args);
  if (args[mcpAt] === 'mcp') {
    return mcpCommand([...args.slice(0, mcpAt), ...args.slice(mcpAt + 1)], rawIo, {
      cwd: environment.cwd ?? process.cwd(),
      env: environment.env ?? process.env,
      version: environment.version,
    });
  }
  let parsed;
  try {
    parsed = parseArgs({ args: [...args], options: OPTIONS, allowPositionals: true });
  } catch (error) {
    terminalSafeIo(rawIo, false).stderr(`${PROGRAM}: ${errorMessage(error)}\nRun "${PROGRAM} --help" for usage.\n`);
    return ExitCode.Usage;
  }
  const { values, positionals } = parsed;
  const io = terminalSafeIo(rawIo, values.json === true);
  if (values.version) {
    io.stdout(`${environment.version}\n`);
    return ExitCode.Ok;
  }
  const [name, ...rest] = positionals;
  if (name === undefined || name === 'help') return help(io, rest[0]);
  const command = COMMANDS[name];
  if (!command) {
    io.stderr(`${PROGRAM}: unknown command "${name}"\nRun "${PROGRAM} --help" for usage.\n`);
    return ExitCode.Usage;
  }
  if (values.help) return help(io, name);
  if (name !== 'watch' && (values.timeout !== undefined || values.count !== undefined)) {
    io.stderr(`${PROGRAM}: --timeout and --count are options of "watch" only\nRun "${PROGRAM} ${name} --help" for usage.\n`);
    return ExitCode.Usage;
  }
  if (name !== 'tools' && values.approve !== undefined) {
    io.stderr(`${PROGRAM}: --approve <server>[/<tool>] is an option of "tools" only\nRun "${PROGRAM} tools --help" for usage.\n`);
    return ExitCode.Usage;
  }
  const cap = values['max-side-effect'] ?? 'destructive';
  if (!isSideEffectCap(cap)) {
    io.stderr(`${PROGRAM}: --max-side-effect must be one of ${SIDE_EFFECT_CAPS.join(', ')}, not "${cap}"\n`);
    return ExitCode.Usage;
  }
  const maxTurns = values['max-turns'] === undefined ? undefined : Number(values['max-turns']);
  if (maxTurns !== undefined && (!Number.isSafeInteger(maxTurns) || maxTurns <= 0)) {
    io.stderr(`${PROGRAM}: --max-turns must be a positive whole number, not "${values['max-turns']}"\n`);
    return ExitCode.Usage;
  }
  const approver = values.yes ? FLAG_APPROVER : io.terminal ? new TerminalApprover(io.terminal.ask) : NON_INTERACTIVE_APPROVER;

  const env = environment.env ?? process.env;
  // --workspace: as if started there, for a host that starts its servers in a folder of its own choosing.
  const cwd = path.resolve(environment.cwd ?? process.cwd(), values.workspace ?? '.');
  if (values.workspace !== undefined && !isFolder(cwd)) {
    io.stderr(`${PROGRAM}: --workspace ${values.workspace}: no such folder\n`);
    return ExitCode.Usage;
  }
  const file = path.resolve(cwd, values.config ?? DEFAULT_CONFIG_FILE);
  let config: AgentConfig;
  try {
    // Without --config a missing ./agent-cli.yaml just means no servers but the user's: the built-in tools still work.
    config = withSessionServers(loadLayeredConfig(file, values.config !== undefined, env), values['mcp-server'] ?? [], cwd);
  } catch (error) {
    return report(io, error);
  }
  for (const warning of config.warnings ?? []) io.stderr(`warning: ${warning}\n`);
  // What servers report while nobody asked (warnings, reconnects) never lands on an open question (the chat's "> ").
  const notice = (text: string) => (io.terminal?.print ? io.terminal.print(text) : io.stderr(text));
  const openRuntime = async (servers?: readonly string[]) => {
    const features = createClientFeatures({
      config,
      io,
      cap,
      yes: values.yes === true,
      json: values.json === true,
      agent: { model: values.model, env },
    });
    const runtime = await createAgentRuntime(
      servers ? { ...config, servers: config.servers.filter((s) => servers.includes(s.name)) } : config,
      {
        clientFactory: new TransportClientFactory(
          { name: 'agent-cli', version: environment.version },
          { features, authorization: serverOAuth(cliOAuthHost(env, io.terminal !== undefined, notice)) },
        ),
        roots: features,
        pins: new ToolPins(
          new PinStore(userConfigDirectory(env)),
          driftApprover({
            approveAll: values['approve-changed-tools'] === true,
            targets: values.approve ?? [],
            // Only a conversation asks; --yes approves calls, never a changed definition.
            ask: (name === 'run' || name === 'chat') && values.yes !== true ? io.terminal?.ask : undefined,
            tell: (line) => notice(`${line}\n`),
          }),
        ),
        log: { warn: (message) => notice(`warning: ${message}\n`), progress: (line) => notice(`  [${line}]\n`) },
        onProgress: progressReporter(io.stderr),
        workingDirectory: cwd,
        // The CLI's own configuration and credentials are sealed: no built-in tool reads them, whatever the flags.
        workspace: new Workspace([cwd, ...(config.workspaceRoots ?? [])], [userConfigDirectory(env)]),
      },
    );
    environment.onRuntime?.(runtime);
    return runtime;
  };
  try {
    const agent = {
      model: values.model,
      maxTurns,
      transcript: values.transcript,
      env,
      workingDirectory: cwd,
      signal: environment.signal,
      leaveTasks: values['leave-tasks'] === true,
    };
    const options = { timeout: values.timeout, count: values.count, approve: values.approve };
    return await command({ io, args: rest, json: values.json === true, config, gate: { cap, approver }, agent, options, openRuntime });
  } catch (error) {
    return report(io, error);
  } finally {
    environment.onRuntime?.(undefined);
  }
}

function isFolder(folder: string): boolean {
  try {
    return statSync(folder).isDirectory();
  } catch {
    return false;
  }
}

/** Where the first word that is neither an option nor an option's value is (the command), or args.length. */
function commandPosition(args: readonly string[]): number {
  const { tokens } = parseArgs({ args: [...args], options: OPTIONS, allowPositionals: true, strict: false, tokens: true });
  return tokens.find((token) => token.kind === 'positional')?.index ?? args.length;
}

function help(io: CliIo, command: string | undefined): number {
  if (command !== undefined && !COMMAND_HELP[command]) {
    io.stderr(`${PROGRAM}: unknown command "${command}"\nRun "${PROGRAM} --help" for usage.\n`);
    return ExitCode.Usage;
  }
  io.stdout(command === undefined ? HELP : COMMAND_HELP[command]);
  return ExitCode.Ok;
}

const CONFIG_CODES: ReadonlySet<string> = new Set([
  AgentErrorCode.ConfigNotFound,
  AgentErrorCode.ConfigInvalid,
  AgentErrorCode.ConfigMissingVariable,
  AgentErrorCode.ConfigDuplicateServer,
  AgentErrorCode.InvalidServerName,
  AgentErrorCode.LlmModelNotConfigured,
  AgentErrorCode.HookFileNotFound,
  AgentErrorCode.HookFileInvalid,
]);

function report(io: CliIo, error: unknown): number {
  if (error instanceof AgentError) {
    io.stderr(`${PROGRAM}: ${error.message} [${error.code}]\n`);
    return CONFIG_CODES.has(error.code) ? ExitCode.Config : ExitCode.Failure;
  }
  io.stderr(`${PROGRAM}: ${errorMessage(error)}\n`);
  return ExitCode.Failure;
}
