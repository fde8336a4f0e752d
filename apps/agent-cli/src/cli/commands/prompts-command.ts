import { type Prompt } from '@toolmesh/mcp-client';
import { printable, printableName } from '@toolmesh/protocol';

import { McpPromptClient } from '../../mcp/host/prompt-client';
import { promptText } from '../../mcp/host/prompt-text';
import { PROGRAM } from '../../program-name';
import { type Command, withRuntime } from '../command-context';
import { ExitCode } from '../exit-codes';
import { formatTable } from '../format-table';
import { reportFeatureFailure, reportListingFailures } from './server-feature-failure';

/** `prompts [list [server]]`, `prompts get <server> <name> [key=value ...]`: the connected servers' prompts (SPEC A13). */
export const promptsCommand: Command = async (context) => {
  const [action = 'list', ...rest] = context.args;
  const usage = (problem: string) => {
    context.io.stderr(`${PROGRAM} prompts: ${problem}\nRun "${PROGRAM} prompts --help" for usage.\n`);
    return ExitCode.Usage;
  };
  if (action === 'list') {
    if (rest.length > 1) return usage('"list" takes at most a server name');
    return withRuntime(context, async (runtime) => {
      try {
        const { items, failures } = await new McpPromptClient(runtime.mcp).list(rest[0], context.agent.signal);
        if (context.json) context.io.stdout(`${JSON.stringify({ prompts: items, failures }, null, 2)}\n`);
        else
          context.io.stdout(
            formatTable(
              ['SERVER', 'PROMPT', 'ARGUMENTS', 'DESCRIPTION'],
              items.map((p) => [p.server, printableName(p.name), argumentsColumn(p), printable(p.description ?? '')]),
            ),
          );
        reportListingFailures(context.io, 'prompts', failures);
        return runtime.servers.some((s) => s.state === 'failed') || failures.length > 0 ? ExitCode.ServerUnavailable : ExitCode.Ok;
      } catch (error) {
        return reportFeatureFailure(context.io, 'prompts list', error);
      }
    });
  }
  if (action === 'get') {
    const [server, name, ...words] = rest;
    if (name === undefined)
      return usage(
        `"get" takes a server name, a prompt name and its arguments as key=value, e.g. ${PROGRAM} prompts get everything args-prompt city=Paris`,
      );
    return withRuntime(context, async (runtime) => {
      try {
        const result = await new McpPromptClient(runtime.mcp).get(server, name, words, context.agent.signal);
        context.io.stdout(context.json ? `${JSON.stringify(result, null, 2)}\n` : `${promptText(result)}\n`);
        return ExitCode.Ok;
      } catch (error) {
        return reportFeatureFailure(context.io, 'prompts get', error);
      }
    });
  }
  return usage(`unknown action "${action}"; use list or get`);
};

/** `city*, state`: the argument names, required ones starred. */
function argumentsColumn(prompt: Prompt): string {
  return (prompt.arguments ?? []).map((a) => `${printableName(a.name)}${a.required ? '*' : ''}`).join(', ');
}
