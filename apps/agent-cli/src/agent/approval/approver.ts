import type { Tool } from '../../tools/tool';
import type { ToolCall } from '../tool-call';

/** Why the gate asks: the tool's declared side effects, or a hook that deferred the decision to a person. */
export type ApprovalReason = 'mutating' | 'destructive' | 'hook-defer';

/** The reason as the end of "... needs approval (<reason>)". */
export function reasonText(reason: ApprovalReason): string {
  if (reason === 'hook-defer') return 'a hook deferred the decision to a person';
  return `it is ${reason}`;
}

export interface ApprovalRequest {
  readonly call: ToolCall;
  readonly tool: Tool;
  readonly reason: ApprovalReason;
}

/** Who answered: a person at the terminal, the `--yes` flag, or nobody (no terminal, no `--yes`). */
export type ApprovalAnswer =
  | { readonly approved: true; readonly by: 'user' | 'flag' }
  | { readonly approved: false; readonly by: 'user' | 'non-interactive'; readonly message: string };

/** Answers the approval gate's questions. The gate decides *whether* to ask; an approver only answers. */
export interface Approver {
  approve(request: ApprovalRequest, signal?: AbortSignal): Promise<ApprovalAnswer>;
}

/** `--yes`: every question is answered yes. */
export const FLAG_APPROVER: Approver = {
  approve: async () => ({ approved: true, by: 'flag' }),
};

/** No terminal and no `--yes`: nobody can answer, so every question is answered no, saying how to allow it. */
export const NON_INTERACTIVE_APPROVER: Approver = {
  approve: async ({ call, reason }) => ({
    approved: false,
    by: 'non-interactive',
    message:
      `${call.name} needs approval (${reasonText(reason)}), ` +
      'but there is no terminal to ask on; run with --yes to approve such calls, or --max-side-effect to refuse them without asking',
  }),
};
