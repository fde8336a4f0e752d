import type { CallToolOptions, CallToolResult, TaskClient, Tool as McpToolDefinition } from '@toolmesh/mcp-client';
import type { CompiledSchema } from '@toolmesh/protocol';
import { errorMessage, printableName } from '@toolmesh/protocol';

import { PROGRAM } from '../program-name';
import { errorResult, type SideEffects, type Tool, type ToolResult } from '../tools/tool';
import { toolResultOf } from './call-tool-result';
import type { PinState } from './pins/tool-pins';
import type { BackgroundTasks } from './tasks/background-tasks';

/** `mcp__<server>__<tool>`: the server name keeps tools of different servers apart. */
export function mcpToolName(server: string, tool: string): string {
  return `mcp__${server}__${tool}`;
}

/**
 * The server and tool of a name `mcpToolName` made, or undefined for any other (a built-in tool's). A
 * server name has no `_` (server-config.ts), so the first `__` after it ends it; the tool's may have any.
 */
export function parseMcpToolName(name: string): { readonly server: string; readonly tool: string } | undefined {
  const match = /^mcp__([a-z0-9-]+)__(.+)$/s.exec(name);
  return match ? { server: match[1], tool: match[2] } : undefined;
}

/**
 * What a tool needs of its server: a connected `McpClient`, or the `ServerConnection` that replaces its
 * client when the connection is lost. `downReason` says why calls cannot go through just now.
 */
export interface ToolChannel {
  readonly serverName: string;
  readonly isConnected: boolean;
  readonly downReason?: string;
  callTool(name: string, args: Record<string, unknown>, signal?: AbortSignal, options?: CallToolOptions): Promise<CallToolResult>;
  /** The server's tasks while connected; absent: calls are never tasks. */
  readonly tasks?: TaskClient;
}

/**
 * A tool of an MCP server, as the agent's own `Tool`. It advertises the server's input schema untouched,
 * carries the side effects resolved and the schema compiled at registration (what the schema states is
 * enforced, what it leaves open stays open), and never throws: a disconnected server, an `isError` result
 * and any exception all come back as error results.
 */
export class McpTool implements Tool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: Readonly<Record<string, unknown>>;

  /**
   * `progress`: where the call's progress notifications are shown; with it a progress token is sent, and
   * each notification restarts the request timeout, up to `maxCallTimeoutMs` for the whole call.
   */
  constructor(
    private readonly client: ToolChannel,
    private readonly definition: McpToolDefinition,
    readonly sideEffects: SideEffects,
    private readonly inputValidator: CompiledSchema,
    private readonly progress?: { readonly show: (line: string) => void; readonly maxCallTimeoutMs: number },
    /** Its definition against the user's pin (pins/tool-pins.ts); absent: not checked. */
    readonly pin?: PinState,
    /** Where a call that became a task is followed; absent: calls are never tasks. */
    private readonly background?: BackgroundTasks,
  ) {
    this.name = mcpToolName(client.serverName, definition.name);
    this.description = definition.description ?? definition.title ?? '';
    this.inputSchema = definition.inputSchema;
  }

  /** A changed definition the user has not approved: never offered to the model, and its calls refused. */
  get withheld(): boolean {
    return this.pin?.state === 'changed';
  }

  get serverName(): string {
    return this.client.serverName;
  }

  /** The tool's name as its server gave it: the server's text, to be shown only quoted and neutralised. */
  get serverToolName(): string {
    return this.definition.name;
  }

  checkArguments(args: Record<string, unknown>): string | undefined {
    const check = this.inputValidator.check(args, 'arguments');
    return check.ok ? undefined : check.problems.join('; ');
  }

  async execute(args: Record<string, unknown>, signal?: AbortSignal): Promise<ToolResult> {
    if (this.withheld)
      return errorResult(
        `${this.name} is not available: its definition changed since it was approved; review and approve it with "${PROGRAM} tools --approve ${this.serverName}/${printableName(this.definition.name)}"`,
      );
    if (!this.client.isConnected) return errorResult(this.client.downReason ?? `MCP server "${this.client.serverName}" is not connected`);
    const problem = this.checkArguments(args);
    if (problem) return errorResult(`invalid arguments for ${this.name}: ${problem}`);
    try {
      const started = await this.startTask(args, signal);
      if (started) return started;
      return toolResultOf(await this.client.callTool(this.definition.name, args, signal, this.callOptions()));
    } catch (error) {
      return errorResult(`${this.name} failed: ${errorMessage(error)}`);
    }
  }

  /**
   * A call of a tool that may be a task, asked as one (SPEC A24): the task is followed in the background and the
   * model gets its handle at once; a server that answers at once gives the result. Undefined: call it the
   * ordinary way (no task support, or a 2026-07-28 server that asks for input first, which that path answers).
   */
  private async startTask(args: Record<string, unknown>, signal: AbortSignal | undefined): Promise<ToolResult | undefined> {
    const tasks = this.background && this.client.tasks;
    if (!this.background || !tasks?.supports(this.definition)) return undefined;
    const outcome = await tasks.callTool(this.definition.name, args, { signal });
    if (outcome.kind === 'input_required') return undefined;
    if (outcome.kind === 'result') return toolResultOf(outcome.result);
    const task = this.background.track(outcome.task, { server: this.serverName, tool: this.name }, () => this.client.tasks);
    return {
      isError: false,
      content: [
        {
          type: 'text',
          text:
            `${this.name} is running as task ${task.taskId} (status ${task.status}). Its result will be given to you when it completes, ` +
            "as this call's result; go on with other work meanwhile, and do not call it again for the same thing.",
        },
      ],
    };
  }

  private callOptions(): CallToolOptions | undefined {
    const progress = this.progress;
    if (!progress) return undefined;
    return {
      maxTotalTimeoutMs: progress.maxCallTimeoutMs,
      onProgress: ({ progress: done, total, message }) =>
        // The server's message is cut and escaped: no control character reaches the terminal raw.
        progress.show(
          `${this.name}: ${done}${total === undefined ? '' : `/${total}`}${typeof message === 'string' ? ` ${printableName(message)}` : ''}`,
        ),
    };
  }
}
