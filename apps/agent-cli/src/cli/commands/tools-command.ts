import { printable } from '@toolmesh/protocol';

import { describeSideEffects } from '../../tools/describe-side-effects';
import { type Command, withRuntime } from '../command-context';
import { ExitCode } from '../exit-codes';
import { formatTable } from '../format-table';

/**
 * `tools`: every registered tool with the side effects the agent assumes for it; `--json` also says which
 * are deferred (left out of the model's requests until ToolSearch finds them, SPEC A21).
 */
export const toolsCommand: Command = (context) =>
  withRuntime(context, async (runtime) => {
    const tools = runtime.tools.list();
    if (context.json) {
      const deferred = new Set(runtime.deferral?.plan(runtime.tools.offered()).deferred.map((t) => t.name));
      const listing = tools.map((t) => ({
        name: t.name,
        description: t.description,
        sideEffects: t.sideEffects,
        deferred: deferred.has(t.name),
        inputSchema: t.inputSchema,
      }));
      context.io.stdout(`${JSON.stringify({ tools: listing }, null, 2)}\n`);
    } else {
      // Names and descriptions of server tools are the servers' text: escaped, so none can move the cursor or clear the screen.
      context.io.stdout(
        formatTable(
          ['TOOL', 'SIDE EFFECTS', 'DESCRIPTION'],
          tools.map((t) => [printable(t.name, 120), describeSideEffects(t.sideEffects), printable(t.description.split('\n')[0])]),
        ),
      );
    }
    return runtime.servers.some((s) => s.state === 'failed') ? ExitCode.ServerUnavailable : ExitCode.Ok;
  });
