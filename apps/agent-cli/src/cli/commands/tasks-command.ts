import { type McpTask, type TaskClient } from '@toolmesh/mcp-client';
import { errorMessage, printableName } from '@toolmesh/protocol';

import { PROGRAM } from '../../program-name';
import type { AgentRuntime } from '../../runtime/agent-runtime';
import { type Command, withRuntime } from '../command-context';
import { ExitCode } from '../exit-codes';
import { formatTable } from '../format-table';

/** The most `tasks/list` pages read from one server: a server whose cursor never ends is not followed forever. */
const MAX_LIST_PAGES = 20;

/**
 * `tasks [list]` and `tasks cancel <id>`: the tasks the connected servers hold for this client (MCP Tasks,
 * SPEC A24), outside a conversation. A 2025-11-25 server lists them with `tasks/list` where it offers it; a
 * 2026-07-28 server has no list (a task is followed by its id), so it is named as not listable. `cancel`
 * sends `tasks/cancel` to each server that takes tasks until one knows the id.
 */
export const tasksCommand: Command = async (context) => {
  const [action = 'list', ...rest] = context.args;
  const usage = (problem: string) => {
    context.io.stderr(`${PROGRAM} tasks: ${problem}\nRun "${PROGRAM} tasks --help" for usage.\n`);
    return ExitCode.Usage;
  };
  if (action === 'list') {
    if (rest.length > 0) return usage('"list" takes no arguments');
    return withRuntime(context, (runtime) => list(context, runtime));
  }
  if (action === 'cancel') {
    if (rest.length !== 1) return usage('"cancel" takes one task id, as "tasks" lists it');
    return withRuntime(context, (runtime) => cancel(context, runtime, rest[0]));
  }
  return usage(`unknown action "${action}"; use list or cancel`);
};

type Context = Parameters<Command>[0];

async function list(context: Context, runtime: AgentRuntime): Promise<number> {
  const rows: Array<McpTask & { server: string }> = [];
  const unlisted: Array<{ server: string; reason: string }> = [];
  for (const [server, tasks] of taskClients(runtime)) {
    if (!tasks.canList) {
      unlisted.push({ server, reason: 'it offers no tasks/list' });
      continue;
    }
    try {
      let cursor: string | undefined;
      for (let page = 0; page < MAX_LIST_PAGES; page++) {
        const listed = await tasks.list(cursor, context.agent.signal);
        rows.push(...listed.tasks.map((task) => ({ ...task, server })));
        cursor = listed.nextCursor;
        if (cursor === undefined) break;
      }
    } catch (error) {
      unlisted.push({ server, reason: errorMessage(error) });
    }
  }
  if (context.json) context.io.stdout(`${JSON.stringify({ tasks: rows, unlisted }, null, 2)}\n`);
  else
    context.io.stdout(
      formatTable(
        ['SERVER', 'TASK', 'STATUS', 'CREATED', 'MESSAGE'],
        rows.map((t) => [t.server, printableName(t.taskId), t.status, t.createdAt ?? '', printableName(t.statusMessage ?? '')]),
      ),
    );
  for (const { server, reason } of unlisted) context.io.stderr(`${PROGRAM} tasks: MCP server "${server}" not listed: ${reason}\n`);
  return runtime.servers.some((s) => s.state === 'failed') ? ExitCode.ServerUnavailable : ExitCode.Ok;
}

async function cancel(context: Context, runtime: AgentRuntime, taskId: string): Promise<number> {
  const refusals: string[] = [];
  for (const [server, tasks] of taskClients(runtime)) {
    try {
      const task = await tasks.cancel(taskId, context.agent.signal);
      context.io.stdout(
        `task ${printableName(taskId)} of MCP server "${server}" cancelled${task ? `; it reports it ${task.status}` : ''}\n`,
      );
      return ExitCode.Ok;
    } catch (error) {
      refusals.push(`"${server}": ${errorMessage(error)}`);
    }
  }
  context.io.stderr(
    refusals.length === 0
      ? `${PROGRAM} tasks: no connected MCP server takes tasks\n`
      : `${PROGRAM} tasks: no server cancelled task ${printableName(taskId)} (${refusals.join('; ')})\n`,
  );
  return ExitCode.Failure;
}

/** The connected servers that take tasks (a capability of either era), by name. */
function taskClients(runtime: AgentRuntime): Array<[string, TaskClient]> {
  return runtime.servers.flatMap((status) => {
    const client = runtime.mcp.client(status.name);
    if (!client?.isConnected) return [];
    const capabilities = client.tasks;
    return capabilities.offered ? [[status.name, capabilities] as [string, TaskClient]] : [];
  });
}
