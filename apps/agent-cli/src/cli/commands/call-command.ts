import { errorMessage } from '@toolmesh/protocol';

import type { Approver } from '../../agent/approval/approver';
import type { AgentConfig } from '../../config/load-config';
import { AgentError, AgentErrorCode } from '../../errors/agent-errors';
import { parseMcpToolName } from '../../mcp/mcp-tool';
import { toolFilterTest } from '../../mcp/tool-filter';
import { PROGRAM } from '../../program-name';
import { resultText } from '../../tools/tool';
import { type CliIo, type Command, type CommandContext, withRuntime } from '../command-context';
import { ExitCode } from '../exit-codes';

/** `call <tool> [json]`: one tool call through the approval gate, the arguments checked before any server is started. */
export const callCommand: Command = async (context) => {
  const [toolName, json = '{}', ...extra] = context.args;
  if (toolName === undefined || extra.length > 0) {
    context.io.stderr(`${PROGRAM} call: expected <tool> and at most one JSON argument\nRun "${PROGRAM} call --help" for usage.\n`);
    return ExitCode.Usage;
  }
  const args = parseArguments(json, toolName);
  if (args instanceof AgentError) return fail(context.io, args, ExitCode.Usage);

  return withRuntime(
    context,
    async (runtime) => {
      const tool = runtime.tools.get(toolName);
      if (!tool) {
        const server = parseMcpToolName(toolName)?.server;
        const down = runtime.servers.find((s) => s.name === server && s.state === 'failed');
        if (down)
          return fail(
            context.io,
            new AgentError(AgentErrorCode.ServerUnavailable, `server "${down.name}" is unavailable: ${down.error}`),
            ExitCode.ServerUnavailable,
          );
        const hint = configuredAway(toolName, context.config) ?? (await suggestion(context, toolName));
        return fail(context.io, new AgentError(AgentErrorCode.ToolNotFound, `no tool named "${toolName}"; ${hint}`), ExitCode.Usage);
      }
      let refused = false;
      const gate = { cap: context.gate.cap, approver: explicitCall(context.gate.approver) };
      const executor = runtime.executor(gate, (event) => (refused ||= event.type === 'approval' && !event.verdict.allowed));
      const result = await executor.execute({ id: 'cli', name: toolName, args });
      if (context.json) context.io.stdout(`${JSON.stringify(result, null, 2)}\n`);
      else (result.isError ? context.io.stderr : context.io.stdout)(`${resultText(result)}\n`);
      if (refused) return ExitCode.Denied;
      return result.isError ? ExitCode.Failure : ExitCode.Ok;
    },
    serversFor(toolName, context.config),
  );
};

/** Why the configuration keeps a tool of an MCP server from the agent, if it does: its server is off, or its `tools` filter leaves it out. */
function configuredAway(toolName: string, config: AgentConfig): string | undefined {
  const named = parseMcpToolName(toolName);
  if (named === undefined) return undefined;
  if ((config.disabledServers ?? []).includes(named.server))
    return `the server "${named.server}" is turned off (${PROGRAM} mcp enable ${named.server} turns it on)`;
  const filter = config.servers.find((s) => s.name === named.server)?.tools;
  if (!toolFilterTest(filter)(named.tool))
    return `the "tools" allow / deny list of the server "${named.server}" in ${config.file} leaves it out: the agent never offers or calls it`;
  return undefined;
}

async function suggestion(context: CommandContext, toolName: string): Promise<string> {
  const meant = parseMcpToolName(toolName) === undefined ? await qualifiedNames(context, toolName) : [];
  return meant.length > 0 ? `did you mean ${meant.join(' or ')}?` : `run "${PROGRAM} tools" to list the tools`;
}

/**
 * The servers one call needs (SPEC A20): the tool's own (none for a built-in) and those the configured hooks
 * call; no other server is started, so a hung or slow one elsewhere in the configuration costs nothing.
 */
function serversFor(toolName: string, config: AgentConfig): string[] {
  const own = parseMcpToolName(toolName)?.server;
  const hooks = (config.hooks ?? [])
    .flatMap((file) => file.hooks)
    .flatMap((hook) => (hook.action.type === 'mcp_tool' ? [hook.action.server] : []));
  return [...new Set([...(own ? [own] : []), ...hooks])];
}

/**
 * The server tools named `toolName` (`mcp__<server>__<toolName>`), for a name typed without its server:
 * only then, on the way to a usage error, are all the configured servers connected to look.
 */
async function qualifiedNames(context: CommandContext, toolName: string): Promise<string[]> {
  if (context.config.servers.length === 0) return [];
  const runtime = await context.openRuntime();
  try {
    return runtime.tools
      .list()
      .map((tool) => tool.name)
      .filter((name) => name.startsWith('mcp__') && name.endsWith(`__${toolName}`));
  } finally {
    await runtime.close();
  }
}

/**
 * `call` is the user's own explicit action (SPEC A20): the side effects of the tool named are approved by
 * typing the command, so no --yes is needed; the cap still refuses what is above --max-side-effect, and a
 * hook that defers to a person still asks the person (the command line's approver).
 */
function explicitCall(approver: Approver): Approver {
  return {
    approve: (request, signal) =>
      request.reason === 'hook-defer' ? approver.approve(request, signal) : Promise.resolve({ approved: true, by: 'user' }),
  };
}

function parseArguments(json: string, toolName: string): Record<string, unknown> | AgentError {
  const invalid = (problem: string) =>
    new AgentError(AgentErrorCode.InvalidArguments, `${problem}; example: ${PROGRAM} call ${toolName} '{"key":"value"}'`);
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (error) {
    return invalid(`the arguments are not valid JSON (${errorMessage(error)})`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return invalid('the arguments must be a JSON object');
  return value as Record<string, unknown>;
}

function fail(io: CliIo, error: AgentError, code: number): number {
  io.stderr(`${PROGRAM} call: ${error.message} [${error.code}]\n`);
  return code;
}
