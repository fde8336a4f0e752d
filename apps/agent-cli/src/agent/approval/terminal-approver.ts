import { McpTool } from '../../mcp/mcp-tool';
import { describeSideEffects } from '../../tools/describe-side-effects';
import { forTerminal } from '../../tools/terminal-text';
import { type ApprovalAnswer, type ApprovalRequest, type Approver, reasonText } from './approver';

/** Asks one question on the terminal and resolves to the line typed; `chat` shares its readline with it. */
export type AskLine = (question: string, signal?: AbortSignal) => Promise<string>;

const ARGUMENTS_SHOWN = 500;

/**
 * Asks a person. The prompt names the tool, its side effects as the agent knows them (an MCP server's
 * annotations shown as the server's claim), why it asks, and the arguments; only `y` or `yes` approves.
 */
export class TerminalApprover implements Approver {
  constructor(private readonly ask: AskLine) {}

  async approve(request: ApprovalRequest, signal?: AbortSignal): Promise<ApprovalAnswer> {
    const answer = await this.ask(approvalPrompt(request), signal);
    if (/^\s*y(es)?\s*$/i.test(answer)) return { approved: true, by: 'user' };
    return { approved: false, by: 'user', message: `the user declined ${request.call.name}` };
  }
}

/**
 * The question, neutralised for the terminal. An MCP tool is named as the registry knows it: its server's
 * name from the configuration, and the name the server chose only inside JSON quotes, so no name (say
 * `Read [read-only]`) can make the question read as if about another tool or other side effects.
 */
function approvalPrompt({ call, tool, reason }: ApprovalRequest): string {
  const why = reason === 'hook-defer' ? 'a hook asks for your decision' : reasonText(reason);
  const which = tool instanceof McpTool ? `the tool ${JSON.stringify(tool.serverToolName)} of MCP server "${tool.serverName}"` : call.name;
  let args = JSON.stringify(call.args);
  if (args.length > ARGUMENTS_SHOWN) args = `${args.slice(0, ARGUMENTS_SHOWN)}…`;
  return forTerminal(`Allow ${which} [${describeSideEffects(tool.sideEffects)}]? (${why})\n  arguments: ${args}\nApprove? [y/N] `);
}
