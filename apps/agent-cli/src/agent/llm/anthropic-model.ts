import Anthropic, { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from '@anthropic-ai/sdk';

import { argumentsObject, type AssistantReply, type ChatMessage, type RequestedToolCall, type ToolDefinition } from './chat-messages';
import type { ChatModel, CompletionOptions, CompletionRequest } from './chat-model';
import { sdkFailure } from './llm-failure';
import type { ModelSettings } from './model-settings';
import { sdkClientOptions, SdkFetch } from './sdk-fetch';

/** Anthropic requires a limit on the answer's length; this one fits every current Claude model. */
const DEFAULT_MAX_TOKENS = 8192;
const IMAGE_TYPES = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);
const ERRORS = { APIError, APIConnectionError, APIConnectionTimeoutError, APIUserAbortError };

/**
 * The `anthropic` provider: Anthropic's Messages API through its official SDK, streamed. Tool results go
 * back as `tool_result` blocks holding their images; the tool definitions end in a cache breakpoint, so
 * a conversation pays for them once rather than every turn (they are the same each turn until a list changes).
 */
export class AnthropicModel implements ChatModel {
  private readonly http: SdkFetch;
  private readonly client: Anthropic;

  constructor(private readonly settings: ModelSettings) {
    this.http = new SdkFetch(settings.requestTimeoutMs);
    this.client = new Anthropic({ apiKey: settings.apiKey ?? null, ...sdkClientOptions(settings, this.http) });
  }

  async complete(request: CompletionRequest, options: CompletionOptions = {}): Promise<AssistantReply> {
    const { system, messages } = anthropicMessages(request.messages);
    try {
      const stream = this.client.messages.stream(
        {
          model: this.settings.model,
          max_tokens: this.settings.maxOutputTokens ?? DEFAULT_MAX_TOKENS,
          ...(system ? { system } : {}),
          messages,
          ...(request.tools.length > 0 ? { tools: anthropicTools(request.tools) } : {}),
        },
        { signal: options.signal },
      );
      if (options.onText) stream.on('text', options.onText);
      const message = await stream.finalMessage();
      let text = '';
      const toolCalls: RequestedToolCall[] = [];
      for (const block of message.content) {
        if (block.type === 'text') text += block.text;
        else if (block.type === 'tool_use')
          toolCalls.push({ id: block.id, name: block.name, arguments: JSON.stringify(block.input ?? {}) });
      }
      return { text, toolCalls, finishReason: message.stop_reason ?? undefined };
    } catch (error) {
      throw sdkFailure(this.settings, error, options.signal, ERRORS);
    }
  }

  close(): Promise<void> {
    return this.http.close();
  }
}

function anthropicTools(tools: readonly ToolDefinition[]): Anthropic.Tool[] {
  return tools.map(({ function: fn }, index) => ({
    name: fn.name,
    description: fn.description,
    input_schema: fn.parameters as Anthropic.Tool.InputSchema,
    // One breakpoint after the last tool caches them all (the cache prefix runs tools, system, messages).
    ...(index === tools.length - 1 ? { cache_control: { type: 'ephemeral' as const } } : {}),
  }));
}

/**
 * The conversation as Messages take it: the system prompt apart, the calls as `tool_use` blocks of the
 * assistant, each result a `tool_result` block of the next user message, and messages of one role in a row
 * joined into one (the API wants user and assistant to alternate).
 */
function anthropicMessages(conversation: readonly ChatMessage[]): { system: string; messages: Anthropic.MessageParam[] } {
  const system: string[] = [];
  const messages: Anthropic.MessageParam[] = [];
  const add = (role: 'user' | 'assistant', blocks: Anthropic.ContentBlockParam[]) => {
    if (blocks.length === 0) return; // an empty answer: the API refuses a message without content
    const last = messages.at(-1);
    if (last?.role === role) (last.content as Anthropic.ContentBlockParam[]).push(...blocks);
    else messages.push({ role, content: blocks });
  };
  for (const message of conversation) {
    if (message.role === 'system') system.push(message.content);
    else if (message.role === 'user') add('user', [{ type: 'text', text: message.content }]);
    else if (message.role === 'assistant') {
      add('assistant', [
        ...(message.content ? [{ type: 'text' as const, text: message.content }] : []),
        ...(message.tool_calls ?? []).map((call) => ({
          type: 'tool_use' as const,
          id: call.id,
          name: call.function.name,
          input: argumentsObject(call.function.arguments),
        })),
      ]);
    } else {
      const images = (message.media ?? []).flatMap((media) =>
        media.type === 'image' && IMAGE_TYPES.has(media.mimeType)
          ? [
              {
                type: 'image' as const,
                source: {
                  type: 'base64' as const,
                  media_type: media.mimeType as Anthropic.Base64ImageSource['media_type'],
                  data: media.data,
                },
              },
            ]
          : [],
      );
      add('user', [
        {
          type: 'tool_result',
          tool_use_id: message.tool_call_id,
          content: [{ type: 'text', text: message.content }, ...images],
          ...(message.isError ? { is_error: true } : {}),
        },
      ]);
    }
  }
  return { system: system.join('\n\n'), messages };
}
