import type { LlmProvider } from '../../config/llm-config';
import type { AssistantReply } from './chat-messages';
import type { ChatModel, CompletionOptions, CompletionRequest } from './chat-model';
import type { ModelSettings } from './model-settings';

type ModelClass = new (settings: ModelSettings) => ChatModel;

/** Each provider's adapter, loaded when first asked: a command that plans with none loads no SDK. */
const ADAPTERS: Readonly<Record<LlmProvider, () => Promise<ModelClass>>> = {
  'openai-chat': async () => (await import('./chat-completions-client')).ChatCompletionsClient,
  anthropic: async () => (await import('./anthropic-model')).AnthropicModel,
  'openai-responses': async () => (await import('./openai-responses-model')).OpenAiResponsesModel,
  gemini: async () => (await import('./gemini-model')).GeminiModel,
};

/** The model of `llm.provider`, made on its first completion. */
export function createChatModel(settings: ModelSettings): ChatModel {
  let model: Promise<ChatModel> | undefined;
  const load = () => (model ??= ADAPTERS[settings.provider]().then((Adapter) => new Adapter(settings)));
  return {
    complete: async (request: CompletionRequest, options?: CompletionOptions): Promise<AssistantReply> =>
      (await load()).complete(request, options),
    close: async () => (model ? (await model).close() : undefined),
  };
}
