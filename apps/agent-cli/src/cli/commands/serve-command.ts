import { realpathSync } from 'node:fs';
import path from 'node:path';

import type { CallToolResult } from '@toolmesh/mcp-client';

import { version } from '../../../../../package.json';
import { AgentErrorCode } from '../../errors/agent-errors';
import { parseMcpToolName } from '../../mcp/mcp-tool';
import { PROGRAM } from '../../program-name';
import { LOAD_SKILL_NAME, READ_SKILL_FILE_NAME } from '../../skills/skill-tools';
import { BuiltinTool } from '../../tools/builtin/builtin-tool';
import { TOOL_SEARCH_NAME } from '../../tools/builtin/tool-search-tool';
import type { Tool } from '../../tools/tool';
import { type Command, type CommandContext, withRuntime } from '../command-context';
import { ExitCode } from '../exit-codes';

/** The built-ins that reach the configured servers (their events, resources, tools, skills): not the agent's own tools to serve. */
const SERVER_FACING: ReadonlySet<string> = new Set([
  'WaitForEvent',
  'ListMcpResources',
  'ReadMcpResource',
  TOOL_SEARCH_NAME,
  LOAD_SKILL_NAME,
  READ_SKILL_FILE_NAME,
]);

/**
 * `serve`: the agent's built-in tools as an MCP server on stdin / stdout (SPEC A20), for another MCP
 * host to use. Every call goes through the runtime's executor, like a call of the agent's own: the
 * configured hooks, `--max-side-effect`, and approval, which here has no terminal (stdin is the protocol):
 * mutating calls are refused unless `--yes`, and the side effects are sent as annotations so the host can
 * ask its user first. The file tools keep to the workspace whatever the flags (tools/builtin/workspace.ts),
 * so a host that lets a read-only call through unasked lets through a read of the workspace only; and a
 * workspace of everything (a host may start its servers in `/` or the home directory) is refused at start.
 * The configured servers are connected for the hooks; their tools are not served.
 * Ends when the host closes stdin, or at Ctrl-C / SIGTERM.
 */
export const serveCommand: Command = async (context) => {
  if (context.args.length > 0) {
    context.io.stderr(`${PROGRAM} serve: takes no arguments\nRun "${PROGRAM} serve --help" for usage.\n`);
    return ExitCode.Usage;
  }
  const tooWide = tooWideRoot(context);
  if (tooWide !== undefined) {
    context.io.stderr(
      `${PROGRAM} serve: the workspace would be ${tooWide}, and the file tools would reach every file under it; ` +
        `pass --workspace <project folder> (in the host's args) [${AgentErrorCode.ServeWorkspaceTooWide}]\n`,
    );
    return ExitCode.Usage;
  }
  // Loaded here, not at start-up: only this command runs a server.
  const { Server } = await import('@modelcontextprotocol/server');
  const { serveStdio, StdioServerTransport } = await import('@modelcontextprotocol/server/stdio');
  return withRuntime(context, async (runtime) => {
    const tools = runtime.tools.list().filter((tool) => parseMcpToolName(tool.name) === undefined && !SERVER_FACING.has(tool.name));
    const executor = runtime.executor(context.gate);
    // One server per era the host opens with: serveStdio answers `server/discover` (2026-07-28) and
    // `initialize` (2025) alike, pinning the connection to the era of its first exchange.
    const serverForEra = () => {
      const server = new Server({ name: 'agent-cli', version }, { capabilities: { tools: {} } });
      server.setRequestHandler('tools/list', async () => ({ tools: tools.map(describe) }));
      server.setRequestHandler('tools/call', async (request, ctx) => {
        const name = request.params.name;
        if (!tools.some((t) => t.name === name))
          return { isError: true, content: [{ type: 'text', text: `no tool named "${name}"; tools/list lists the ones served` }] };
        const result = await executor.execute({ id: String(ctx.mcpReq.id), name, args: request.params.arguments ?? {} }, ctx.mcpReq.signal);
        return {
          isError: result.isError,
          content: [...result.content],
          ...(result.structuredContent === undefined ? {} : { structuredContent: result.structuredContent }),
        } as CallToolResult;
      });
      return server;
    };
    const transport = new StdioServerTransport();
    const served = serveStdio(serverForEra, { transport, onerror: (error) => context.io.stderr(`warning: ${error.message}\n`) });
    // serveStdio owns the transport's onclose (the host closed stdin); the command ends then too. A
    // server's own onclose would not do: a discarded server/discover probe closes one as well.
    const closed = new Promise<void>((resolve) => {
      const ownedBySdk = transport.onclose;
      transport.onclose = () => {
        ownedBySdk?.();
        resolve();
      };
      context.agent.signal?.addEventListener('abort', () => resolve(), { once: true });
    });
    context.io.stderr(`serving ${tools.length} tools on stdio (2026-07-28 and 2025): ${tools.map((t) => t.name).join(', ')}\n`);
    await closed;
    await served.close();
    return ExitCode.Ok;
  });
};

/** The workspace root that is the file system's root or the home directory, if one is. */
function tooWideRoot(context: CommandContext): string | undefined {
  const home = context.agent.env.HOME ? realOrResolved(context.agent.env.HOME) : undefined;
  return [context.agent.workingDirectory, ...(context.config.workspaceRoots ?? [])]
    .map(realOrResolved)
    .find((root) => root === path.parse(root).root || root === home);
}

function realOrResolved(folder: string): string {
  try {
    return realpathSync.native(folder);
  } catch {
    return path.resolve(folder);
  }
}

/**
 * A tool as tools/list gives it: its schema, and what it does as MCP's annotations, which a host may act
 * on without asking (a read-only tool approved unasked): a file tool is read-only or not as declared,
 * since it cannot leave the workspace; Bash is open-world, since a command can.
 */
function describe(tool: Tool) {
  const readOnly = tool.sideEffects.level === 'read-only';
  return {
    name: tool.name,
    description: tool.description,
    inputSchema: tool.inputSchema as { type: 'object' },
    annotations: {
      readOnlyHint: readOnly,
      destructiveHint: !readOnly && tool.sideEffects.destructive,
      openWorldHint: !(tool instanceof BuiltinTool) || tool.openWorld,
    },
  };
}
