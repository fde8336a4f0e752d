import { Agent, type Dispatcher, errors as undiciErrors, request } from 'undici';

import { AgentError } from '../../errors/agent-errors';
import { chatCompletionsMessages } from './chat-completions-messages';
import type { AssistantReply } from './chat-messages';
import type { ChatModel, CompletionOptions, CompletionRequest } from './chat-model';
import { readCompletion } from './completion-reader';
import { brokenOff, statusFailure, timedOut, unreachable } from './llm-failure';
import type { ModelSettings } from './model-settings';

/** The most of an error reply read to find the provider's message. */
const ERROR_BODY_LIMIT = 64 * 1024;

/**
 * The `openai-chat` provider, an OpenAI-compatible chat-completions client (OpenAI, Ollama, vLLM, llama.cpp
 * server): it asks for a streamed reply with the tools offered, and also takes a whole JSON reply from
 * servers that ignore `stream`. Our own client rather than an SDK: these servers differ in small ways
 * (a whole reply for a stream, arguments as objects) that it meets halfway (docs/adr/0022-model-providers.md).
 */
export class ChatCompletionsClient implements ChatModel {
  private readonly dispatcher: Dispatcher;
  private readonly url: string;

  constructor(private readonly settings: ModelSettings) {
    this.url = `${settings.baseUrl.replace(/\/+$/, '')}/chat/completions`;
    this.dispatcher = new Agent({ headersTimeout: settings.requestTimeoutMs, bodyTimeout: settings.requestTimeoutMs });
  }

  async complete(completion: CompletionRequest, options: CompletionOptions = {}): Promise<AssistantReply> {
    const body = JSON.stringify({
      model: this.settings.model,
      messages: chatCompletionsMessages(completion.messages),
      ...(completion.tools.length > 0 ? { tools: completion.tools } : {}),
      stream: true,
    });
    let response: Dispatcher.ResponseData;
    try {
      response = await request(this.url, {
        method: 'POST',
        headers: this.headers(),
        body,
        signal: options.signal,
        dispatcher: this.dispatcher,
      });
    } catch (error) {
      throw this.failure(error, options.signal, () => unreachable(this.settings, error));
    }
    if (response.statusCode >= 400) throw await this.statusError(response);
    try {
      return await readCompletion(response.body, String(response.headers['content-type'] ?? ''), options.onText);
    } catch (error) {
      throw this.failure(error, options.signal, () => brokenOff(this.settings, error));
    }
  }

  close(): Promise<void> {
    return this.dispatcher.close();
  }

  private headers(): Record<string, string> {
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'text/event-stream, application/json' };
    if (this.settings.apiKey) headers.authorization = `Bearer ${this.settings.apiKey}`;
    return headers;
  }

  private async statusError(response: Dispatcher.ResponseData): Promise<AgentError> {
    return statusFailure(this.settings, response.statusCode, await providerErrorText(response.body));
  }

  /** What to throw for an error of the request: the abort's reason, our own errors as they are, a timeout, or `otherwise`. */
  private failure(error: unknown, signal: AbortSignal | undefined, otherwise: () => AgentError): unknown {
    if (signal?.aborted) return signal.reason;
    if (error instanceof AgentError) return error;
    if (error instanceof undiciErrors.HeadersTimeoutError || error instanceof undiciErrors.BodyTimeoutError) return timedOut(this.settings);
    return otherwise();
  }
}

/** The provider's message out of an error body (`{"error": {"message"}}`, `{"error": "..."}`, or text). */
async function providerErrorText(body: AsyncIterable<Buffer>): Promise<string> {
  let text = '';
  try {
    for await (const chunk of body) {
      if (text.length < ERROR_BODY_LIMIT) text += chunk.toString('utf8');
    }
  } catch {
    // The status already says what went wrong; a body cut short only loses the detail.
  }
  let message = text;
  try {
    const json = JSON.parse(text) as { error?: unknown; message?: unknown };
    const error = json.error as { message?: unknown } | string | undefined;
    const found = typeof error === 'string' ? error : typeof error?.message === 'string' ? error.message : json.message;
    if (typeof found === 'string') message = found;
  } catch {
    // Not JSON: the text itself is the message.
  }
  return message;
}
