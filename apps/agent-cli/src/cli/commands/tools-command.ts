import { ExitCode } from '../exit-codes';
import { withRuntime, type Command } from '../command-context';
import { formatTable } from '../format-table';
import { describeSideEffects } from '../../tools/describe-side-effects';

/** `tools`: every registered tool with the side effects the agent assumes for it. */
export const toolsCommand: Command = (context) =>
  withRuntime(context, async (runtime) => {
    const tools = runtime.tools.list();
    if (context.json) {
      const listing = tools.map((t) => ({ name: t.name, description: t.description, sideEffects: t.sideEffects, inputSchema: t.inputSchema }));
      context.io.stdout(`${JSON.stringify({ tools: listing }, null, 2)}\n`);
    } else {
      context.io.stdout(formatTable(['TOOL', 'SIDE EFFECTS', 'DESCRIPTION'], tools.map((t) => [t.name, describeSideEffects(t.sideEffects), firstLine(t.description)])));
    }
    return runtime.servers.some((s) => s.state === 'failed') ? ExitCode.ServerUnavailable : ExitCode.Ok;
  });

function firstLine(text: string): string {
  const line = text.split('\n')[0];
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
}
