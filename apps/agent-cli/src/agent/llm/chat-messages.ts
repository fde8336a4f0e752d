/**
 * The OpenAI chat-completions wire format, as far as the agent uses it. Messages are kept in this shape
 * for the whole conversation, so a turn sends them back as they are, without conversion.
 */
export interface WireToolCall {
  readonly id: string;
  readonly type: 'function';
  readonly function: { readonly name: string; readonly arguments: string };
}

export type ChatMessage =
  | { readonly role: 'system' | 'user'; readonly content: string }
  | { readonly role: 'assistant'; readonly content: string | null; readonly tool_calls?: readonly WireToolCall[] }
  | { readonly role: 'tool'; readonly tool_call_id: string; readonly content: string };

export interface ToolDefinition {
  readonly type: 'function';
  readonly function: { readonly name: string; readonly description: string; readonly parameters: Readonly<Record<string, unknown>> };
}

/** A tool call as the model asked for it: its provider-side name and its arguments as raw JSON text. */
export interface RequestedToolCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: string;
}

/** One complete answer of the model: its text, the tools it wants called, and why it stopped. */
export interface AssistantReply {
  readonly text: string;
  readonly toolCalls: readonly RequestedToolCall[];
  readonly finishReason: string | undefined;
}
