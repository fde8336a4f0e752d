import type { LlmProvider } from '../../config/llm-config';
import type { AssistantReply } from './chat-messages';
import type { ChatModel, CompletionOptions, CompletionRequest } from './chat-model';
import { replyTooLong } from './llm-failure';
import type { ModelSettings } from './model-settings';

type ModelClass = new (settings: ModelSettings) => ChatModel;

/** Each provider's adapter, loaded when first asked: a command that plans with none loads no SDK. */
const ADAPTERS: Readonly<Record<LlmProvider, () => Promise<ModelClass>>> = {
  'openai-chat': async () => (await import('./chat-completions-client')).ChatCompletionsClient,
  anthropic: async () => (await import('./anthropic-model')).AnthropicModel,
  'openai-responses': async () => (await import('./openai-responses-model')).OpenAiResponsesModel,
  gemini: async () => (await import('./gemini-model')).GeminiModel,
};

/**
 * The model of `llm.provider`, made on its first completion, each reply bounded by `maxReplyMs` from start
 * to end. Here, for every provider alike: each adapter's `requestTimeoutMs` restarts on any bytes (an SDK
 * parses its own stream), so it bounds a silent server, not one that keeps a reply alive with nothing in it.
 */
export function createChatModel(settings: ModelSettings): ChatModel {
  let model: Promise<ChatModel> | undefined;
  const load = () => (model ??= ADAPTERS[settings.provider]().then((Adapter) => new Adapter(settings)));
  return {
    complete: async (request: CompletionRequest, options: CompletionOptions = {}): Promise<AssistantReply> => {
      const adapter = await load();
      if (settings.maxReplyMs === undefined) return adapter.complete(request, options);
      const ceiling = AbortSignal.timeout(settings.maxReplyMs);
      const signal = options.signal ? AbortSignal.any([options.signal, ceiling]) : ceiling;
      try {
        return await adapter.complete(request, { ...options, signal });
      } catch (error) {
        if (ceiling.aborted && !options.signal?.aborted) throw replyTooLong(settings);
        throw error;
      }
    },
    close: async () => (model ? (await model).close() : undefined),
  };
}
