import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import type { Response, ResponseInputItem, ResponseStreamEvent } from 'openai/resources/responses/responses';

import { type AssistantReply, type ChatMessage, type RequestedToolCall } from './chat-messages';
import type { ChatModel, CompletionOptions, CompletionRequest } from './chat-model';
import { malformed } from './completion-assembler';
import { reportedError, sdkFailure } from './llm-failure';
import type { ModelSettings } from './model-settings';
import { sdkClientOptions, SdkFetch } from './sdk-fetch';

const ERRORS = { APIError, APIConnectionError, APIConnectionTimeoutError, APIUserAbortError };

/**
 * The `openai-responses` provider: OpenAI's Responses API through its official SDK, streamed. The agent
 * keeps the conversation, so each request sends it whole and asks OpenAI not to store it (`store: false`);
 * a tool result's images go back inside its `function_call_output`.
 */
export class OpenAiResponsesModel implements ChatModel {
  private readonly http: SdkFetch;
  private readonly client: OpenAI;

  constructor(private readonly settings: ModelSettings) {
    this.http = new SdkFetch(settings.requestTimeoutMs);
    this.client = new OpenAI({ apiKey: settings.apiKey ?? '', ...sdkClientOptions(settings, this.http) });
  }

  async complete(request: CompletionRequest, options: CompletionOptions = {}): Promise<AssistantReply> {
    const { instructions, input } = responsesInput(request.messages);
    let response: Response | undefined;
    try {
      const stream = await this.client.responses.create(
        {
          model: this.settings.model,
          ...(instructions ? { instructions } : {}),
          input,
          store: false,
          stream: true,
          ...(this.settings.maxOutputTokens ? { max_output_tokens: this.settings.maxOutputTokens } : {}),
          ...(request.tools.length > 0
            ? {
                tools: request.tools.map(({ function: fn }) => ({
                  type: 'function' as const,
                  name: fn.name,
                  description: fn.description,
                  parameters: fn.parameters as Record<string, unknown>,
                  strict: false, // MCP schemas are not written for strict mode's subset
                })),
              }
            : {}),
        },
        { signal: options.signal },
      );
      for await (const event of stream) response = this.take(event, options) ?? response;
    } catch (error) {
      throw sdkFailure(this.settings, error, options.signal, ERRORS);
    }
    if (!response) throw malformed('the stream ended without response.completed');
    return reply(response);
  }

  close(): Promise<void> {
    return this.http.close();
  }

  /** Hands on text deltas; returns the finished response, and throws the error a stream reports. */
  private take(event: ResponseStreamEvent, options: CompletionOptions): Response | undefined {
    if (event.type === 'response.output_text.delta') options.onText?.(event.delta);
    else if (event.type === 'response.completed' || event.type === 'response.incomplete') return event.response;
    else if (event.type === 'response.failed') throw reportedError(event.response.error?.message ?? 'the response failed');
    else if (event.type === 'error') throw reportedError(event.message);
    return undefined;
  }
}

function reply(response: Response): AssistantReply {
  let text = '';
  const toolCalls: RequestedToolCall[] = [];
  for (const item of response.output) {
    if (item.type === 'message') {
      for (const part of item.content) if (part.type === 'output_text') text += part.text;
    } else if (item.type === 'function_call') {
      toolCalls.push({ id: item.call_id, name: item.name, arguments: item.arguments });
    }
  }
  return { text, toolCalls, finishReason: response.status ?? undefined };
}

/** The conversation as Responses input items: the system prompt as instructions, each call and each result an item of its own. */
function responsesInput(conversation: readonly ChatMessage[]): { instructions: string; input: ResponseInputItem[] } {
  const instructions: string[] = [];
  const input: ResponseInputItem[] = [];
  for (const message of conversation) {
    if (message.role === 'system') instructions.push(message.content);
    else if (message.role === 'user') input.push({ role: 'user', content: message.content });
    else if (message.role === 'assistant') {
      if (message.content) input.push({ role: 'assistant', content: message.content });
      for (const call of message.tool_calls ?? [])
        input.push({ type: 'function_call', call_id: call.id, name: call.function.name, arguments: call.function.arguments });
    } else {
      const images = (message.media ?? []).flatMap((media) =>
        media.type === 'image'
          ? [{ type: 'input_image' as const, image_url: `data:${media.mimeType};base64,${media.data}`, detail: 'auto' as const }]
          : [],
      );
      input.push({
        type: 'function_call_output',
        call_id: message.tool_call_id,
        output: images.length > 0 ? [{ type: 'input_text', text: message.content }, ...images] : message.content,
      });
    }
  }
  return { instructions: instructions.join('\n\n'), input };
}
