import type { AssistantReply, ChatMessage, ToolDefinition } from './chat-messages';

export interface CompletionRequest {
  readonly messages: readonly ChatMessage[];
  readonly tools: readonly ToolDefinition[];
}

export interface CompletionOptions {
  /** Each piece of the answer's text as it arrives. */
  readonly onText?: (delta: string) => void;
  readonly signal?: AbortSignal;
}

/**
 * The one shape of a model the agent sees, whatever provider is behind it: a streamed completion of the
 * whole conversation with the tools offered, in the conversation's own shape (chat-messages.ts). Each
 * provider's adapter converts to and from its API; the loop, the gate, the hooks and the transcript never
 * know which one answered. Every failure is an `AgentError` whose message says what to change; an abort
 * through the signal rejects with the signal's reason instead.
 */
export interface ChatModel {
  complete(request: CompletionRequest, options?: CompletionOptions): Promise<AssistantReply>;
  /** Closes the model's connections, so that a finished command does not wait for idle sockets. */
  close(): Promise<void>;
}
