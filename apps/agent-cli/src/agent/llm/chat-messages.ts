/**
 * The OpenAI chat-completions wire format, as far as the agent uses it. Messages are kept in this shape
 * for the whole conversation, so a turn sends them back as they are, without conversion.
 */
export interface WireToolCall {
  readonly id: string;
  readonly type: 'function';
  readonly function: { readonly name: string; readonly arguments: string };
}

/** A part of a user message: text, an image (a URL, ours are `data:` URLs), or audio (OpenAI's `input_audio`). */
export type ContentPart =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'image_url'; readonly image_url: { readonly url: string } }
  | { readonly type: 'input_audio'; readonly input_audio: { readonly data: string; readonly format: 'wav' | 'mp3' } };

export type ChatMessage =
  | { readonly role: 'system'; readonly content: string }
  | { readonly role: 'user'; readonly content: string | readonly ContentPart[] }
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
