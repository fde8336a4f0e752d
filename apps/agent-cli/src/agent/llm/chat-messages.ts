/**
 * The conversation as the agent keeps it, whatever the provider: OpenAI's chat-completions shape (the
 * first provider the agent spoke), plus what a tool result carries beside its text (media, whether it is
 * an error), which each provider's adapter places where its API takes it.
 */
export interface WireToolCall {
  readonly id: string;
  readonly type: 'function';
  readonly function: { readonly name: string; readonly arguments: string };
  /** What the provider wants back with the call in later turns (Gemini's thought signature); opaque. */
  readonly replay?: string;
}

/** Media of a tool result passed on to the model: an image, or audio where the model takes it (`llm.audioInput`). */
export type ToolMedia =
  | { readonly type: 'image'; readonly mimeType: string; readonly data: string }
  | { readonly type: 'audio'; readonly format: 'wav' | 'mp3'; readonly data: string };

export type ChatMessage =
  | { readonly role: 'system'; readonly content: string }
  | { readonly role: 'user'; readonly content: string }
  | { readonly role: 'assistant'; readonly content: string | null; readonly tool_calls?: readonly WireToolCall[] }
  | {
      readonly role: 'tool';
      readonly tool_call_id: string;
      readonly content: string;
      readonly isError?: boolean;
      readonly media?: readonly ToolMedia[];
    };

export interface ToolDefinition {
  readonly type: 'function';
  readonly function: { readonly name: string; readonly description: string; readonly parameters: Readonly<Record<string, unknown>> };
}

/** A tool call as the model asked for it: its provider-side name and its arguments as raw JSON text. */
export interface RequestedToolCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: string;
  /** See `WireToolCall.replay`. */
  readonly replay?: string;
}

/** One complete answer of the model: its text, the tools it wants called, and why it stopped. */
export interface AssistantReply {
  readonly text: string;
  readonly toolCalls: readonly RequestedToolCall[];
  readonly finishReason: string | undefined;
}

/** A call's arguments as an object, or what is wrong with them. Models send '' for a tool without parameters. */
export function parseToolArguments(text: string): Record<string, unknown> | string {
  if (text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return 'not valid JSON';
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'not a JSON object';
  return value as Record<string, unknown>;
}

/**
 * A call's arguments for the APIs that take them as an object: the loop answered a call whose arguments are
 * not a JSON object with an error result, and the conversation still shows the call, with `{}`.
 */
export function argumentsObject(text: string): Record<string, unknown> {
  const args = parseToolArguments(text);
  return typeof args === 'string' ? {} : args;
}
