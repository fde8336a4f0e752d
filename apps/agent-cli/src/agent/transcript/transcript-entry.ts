import { resultText } from '../../tools/tool';
import type { ToolExecutionEvent } from '../tool-executor';

/** How a session ended: the model answered, the max-turns guard stopped it, a failure, or Ctrl-C. */
export type SessionOutcome = 'done' | 'max_turns' | 'error' | 'interrupted';

/**
 * One line of the JSONL transcript, before the timestamp and turn number are added. Tool names are
 * registry names (what `agent-cli tools` shows), not the provider-side names sent to the model.
 * The transcript records arguments and results (it is the session's record, kept where the user
 * chose); it never holds the API key, which the agent only ever reads from the environment.
 */
export type TranscriptEntry =
  | {
      readonly type: 'session_start';
      readonly command: 'run' | 'chat';
      readonly provider: string;
      readonly model: string;
      readonly baseUrl: string;
      readonly maxTurns: number;
      readonly cap: string;
      readonly approver: string;
    }
  | { readonly type: 'user'; readonly text: string }
  | {
      readonly type: 'assistant';
      readonly text: string;
      readonly toolCalls: ReadonlyArray<{ readonly id: string; readonly name: string; readonly arguments: string }>;
    }
  | { readonly type: 'tool_call'; readonly id: string; readonly name: string; readonly args: unknown }
  | {
      readonly type: 'approval';
      readonly id: string;
      readonly name: string;
      readonly allowed: boolean;
      readonly by: string;
      readonly message?: string;
    }
  | { readonly type: 'tool_result'; readonly id: string; readonly name: string; readonly isError: boolean; readonly text: string }
  /** A result over `llm.maxToolResultChars`: saved whole to `file` (relative to the working directory), the model given `previewChars` of it; or, when it could not be saved, cut. */
  | {
      readonly type: 'tool_result_overflow';
      readonly id: string;
      readonly name: string;
      readonly resultChars: number;
      readonly previewChars: number;
      readonly file?: string;
      readonly reason?: string;
    }
  | { readonly type: 'error'; readonly code?: string; readonly message: string }
  | { readonly type: 'end'; readonly outcome: SessionOutcome };

/** The executor's events as transcript entries: every call, its gate verdict, and its result. */
export function toolEventEntry(event: ToolExecutionEvent): TranscriptEntry {
  const { id, name } = event.call;
  switch (event.type) {
    case 'tool_call':
      return { type: 'tool_call', id, name, args: event.call.args };
    case 'approval':
      return {
        type: 'approval',
        id,
        name,
        allowed: event.verdict.allowed,
        by: event.verdict.by,
        ...(event.verdict.allowed ? {} : { message: event.verdict.message }),
      };
    case 'tool_result':
      return { type: 'tool_result', id, name, isError: event.result.isError, text: resultText(event.result) };
  }
}
