import type { Tool, ToolResult } from '../../tools/tool';
import type { ToolCall } from '../tool-call';

/**
 * What a PreToolUse hook may decide (seed 000 §7.1):
 * - `allow`: run without asking (the side-effect cap still applies: nothing overrides it);
 * - `deny`: do not run; the reason goes back to the model as an error result;
 * - `defer`: leave the decision to a person: ask through the approval gate even for a call the gate
 *   would have let through (no terminal and no `--yes`: denied).
 * No decision is a side-effect-only hook: the gate decides as it would without hooks.
 */
export type HookDecision = 'allow' | 'deny' | 'defer';

export interface PreToolUseVerdict {
  readonly decision?: HookDecision;
  readonly reason?: string;
}

/** The tool executor's hook slot. Implementations never throw: hooks are fail-soft (warn and succeed). */
export interface ToolUseHooks {
  preToolUse(call: ToolCall, tool: Tool, signal?: AbortSignal): Promise<PreToolUseVerdict>;
  postToolUse(call: ToolCall, tool: Tool, result: ToolResult, signal?: AbortSignal): Promise<void>;
}

export const NO_HOOKS: ToolUseHooks = {
  preToolUse: async () => ({}),
  postToolUse: async () => undefined,
};
