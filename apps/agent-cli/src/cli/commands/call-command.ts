import { ExitCode } from '../exit-codes';
import { withRuntime, type Command } from '../command-context';
import { resultText } from '../../tools/tool';

/** `call <tool> [json]`: one tool call, the arguments checked before any server is started. */
export const callCommand: Command = async (context) => {
  const [toolName, json = '{}', ...extra] = context.args;
  if (toolName === undefined || extra.length > 0) {
    context.io.stderr('agent-cli call: expected <tool> and at most one JSON argument\nRun "agent-cli call --help" for usage.\n');
    return ExitCode.Usage;
  }
  const args = parseArguments(json);
  if (typeof args === 'string') {
    context.io.stderr(`agent-cli call: ${args}\nExample: agent-cli call ${toolName} '{"key":"value"}'\n`);
    return ExitCode.Usage;
  }
  return withRuntime(context, async (runtime) => {
    const tool = runtime.tools.get(toolName);
    if (!tool) {
      const server = /^mcp__([a-z0-9-]+)__/.exec(toolName)?.[1];
      const down = runtime.servers.find((s) => s.name === server && s.state === 'failed');
      if (down) {
        context.io.stderr(`agent-cli call: server "${down.name}" is unavailable: ${down.error}\n`);
        return ExitCode.ServerUnavailable;
      }
      context.io.stderr(`agent-cli call: no tool named "${toolName}"; run "agent-cli tools" to list the tools\n`);
      return ExitCode.Usage;
    }
    const result = await tool.execute(args);
    if (context.json) context.io.stdout(`${JSON.stringify(result, null, 2)}\n`);
    else (result.isError ? context.io.stderr : context.io.stdout)(`${resultText(result)}\n`);
    return result.isError ? ExitCode.Failure : ExitCode.Ok;
  });
};

function parseArguments(json: string): Record<string, unknown> | string {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (error) {
    return `the arguments are not valid JSON (${(error as Error).message})`;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'the arguments must be a JSON object';
  return value as Record<string, unknown>;
}
