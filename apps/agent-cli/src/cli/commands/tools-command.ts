import { printable } from '@toolmesh/protocol';

import { McpTool } from '../../mcp/mcp-tool';
import { describeSideEffects } from '../../tools/describe-side-effects';
import { type Command, withRuntime } from '../command-context';
import { ExitCode } from '../exit-codes';
import { formatTable } from '../format-table';

/**
 * `tools`: every registered tool with the side effects the agent assumes for it; `--json` also says which
 * are deferred (left out of the model's requests until ToolSearch finds them, SPEC A21) and each MCP tool's
 * pin (`pinned`, `new`, or `changed` with both hashes: withheld until approved, `--approve <server>[/<tool>]`).
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
        ...(t instanceof McpTool && t.pin ? { pin: t.pin } : {}),
        inputSchema: t.inputSchema,
      }));
      context.io.stdout(`${JSON.stringify({ tools: listing }, null, 2)}\n`);
    } else {
      // Names and descriptions of server tools are the servers' text: escaped, so none can move the cursor or clear the screen.
      context.io.stdout(
        formatTable(
          ['TOOL', 'SIDE EFFECTS', 'DESCRIPTION'],
          tools.map((t) => [
            printable(t.name, 120),
            describeSideEffects(t.sideEffects),
            `${t.withheld ? '[changed: not offered until approved] ' : ''}${printable(t.description.split('\n')[0])}`,
          ]),
        ),
      );
    }
    // A mistyped --approve would otherwise approve nothing without a word.
    const unmatched = (context.options.approve ?? []).filter(
      (target) => !tools.some((t) => t instanceof McpTool && (target === t.serverName || target === `${t.serverName}/${t.serverToolName}`)),
    );
    for (const target of unmatched)
      context.io.stderr(`warning: --approve ${printable(target)}: no tool of a connected server has that name\n`);
    if (unmatched.length > 0) return ExitCode.Usage;
    return runtime.servers.some((s) => s.state === 'failed') ? ExitCode.ServerUnavailable : ExitCode.Ok;
  });
