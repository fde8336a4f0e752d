import { errorResult, type SideEffects, type Tool, type ToolResult } from '../tools/tool';
import type { ToolRegistry } from '../tools/tool-registry';
import type { ApprovalReason, Approver } from './approval/approver';
import { exceedsCap, type SideEffectCap, sideEffectLabel } from './approval/side-effect-cap';
import { NO_HOOKS, type ToolUseHooks } from './hooks/tool-use-hooks';
import type { ToolCall } from './tool-call';

/** Who let a call run, or who stopped it; recorded in the transcript. */
export type GateVerdict =
  | { readonly allowed: true; readonly by: 'not-needed' | 'hook' | 'user' | 'flag' }
  | { readonly allowed: false; readonly by: 'cap' | 'hook' | 'user' | 'non-interactive'; readonly message: string };

/** What the executor reports about each call, in order: the call, the gate's verdict, the result. */
export type ToolExecutionEvent =
  | { readonly type: 'tool_call'; readonly call: ToolCall }
  | { readonly type: 'approval'; readonly call: ToolCall; readonly verdict: GateVerdict }
  | { readonly type: 'tool_result'; readonly call: ToolCall; readonly result: ToolResult };

export interface ToolExecutorOptions {
  /** `--max-side-effect`; default `destructive` (nothing is refused for its side effects alone). */
  readonly cap?: SideEffectCap;
  readonly approver: Approver;
  readonly hooks?: ToolUseHooks;
  readonly onEvent?: (event: ToolExecutionEvent) => void;
}

/**
 * The one path every tool call takes, built-in or MCP alike: look the tool up, check the arguments
 * against its schema, hold it to the side-effect cap, ask the PreToolUse hooks, ask the approval gate, run it, tell the PostToolUse hooks. It reads only
 * the tool's declared side effects, never where the tool comes from, and never throws: every refusal is an
 * error result the model can read. Where a built-in file tool's paths lead is the tool's own check, below
 * this gate (tools/builtin/workspace.ts): no answer here lets one out of the workspace.
 *
 * Order: the cap comes first because it is absolute (no hook and no `--yes` lifts it); a hook's `deny`
 * beats everything after it; `allow` skips the question; `defer` asks even for a read-only call.
 */
export class ToolExecutor {
  private readonly cap: SideEffectCap;
  private readonly hooks: ToolUseHooks;

  constructor(
    private readonly registry: ToolRegistry,
    private readonly options: ToolExecutorOptions,
  ) {
    this.cap = options.cap ?? 'destructive';
    this.hooks = options.hooks ?? NO_HOOKS;
  }

  async execute(call: ToolCall, signal?: AbortSignal): Promise<ToolResult> {
    this.emit({ type: 'tool_call', call });
    const tool = this.registry.get(call.name);
    // A withheld tool refuses every call itself: no hook runs and nobody is asked about a call that cannot run.
    const result = !tool
      ? errorResult(`no tool named "${call.name}"`)
      : tool.withheld
        ? await tool.execute(call.args, signal)
        : await this.gateAndRun(call, tool, signal);
    this.emit({ type: 'tool_result', call, result });
    return result;
  }

  private async gateAndRun(call: ToolCall, tool: Tool, signal: AbortSignal | undefined): Promise<ToolResult> {
    const problem = tool.checkArguments(call.args);
    if (problem) return errorResult(`invalid arguments for ${call.name}: ${problem}`);
    const verdict = await this.decide(call, tool, signal);
    this.emit({ type: 'approval', call, verdict });
    if (!verdict.allowed) return errorResult(verdict.message);
    const result = await tool.execute(call.args, signal);
    await this.hooks.postToolUse(call, tool, result, signal);
    return result;
  }

  private async decide(call: ToolCall, tool: Tool, signal: AbortSignal | undefined): Promise<GateVerdict> {
    if (exceedsCap(tool.sideEffects, this.cap)) {
      const message = `${call.name} is ${sideEffectLabel(tool.sideEffects)}, above --max-side-effect ${this.cap}; it was not run`;
      return { allowed: false, by: 'cap', message };
    }
    const { decision, reason } = await this.hooks.preToolUse(call, tool, signal);
    if (decision === 'deny') return { allowed: false, by: 'hook', message: `a hook denied ${call.name}${reason ? `: ${reason}` : ''}` };
    if (decision === 'allow') return { allowed: true, by: 'hook' };
    const question = decision === 'defer' ? 'hook-defer' : questionFor(tool.sideEffects);
    if (question === undefined) return { allowed: true, by: 'not-needed' };
    const answer = await this.options.approver.approve({ call, tool, reason: question }, signal);
    if (answer.approved) return { allowed: true, by: answer.by };
    return { allowed: false, by: answer.by, message: answer.message };
  }

  private emit(event: ToolExecutionEvent): void {
    this.options.onEvent?.(event);
  }
}

/** Read-only calls run without a question; mutating ones are asked about, destructive ones say so. */
function questionFor(sideEffects: SideEffects): ApprovalReason | undefined {
  if (sideEffects.level === 'read-only') return undefined;
  return sideEffects.destructive ? 'destructive' : 'mutating';
}
