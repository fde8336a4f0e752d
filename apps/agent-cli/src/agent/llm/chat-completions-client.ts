import { errorMessage } from '@toolmesh/protocol';
import { Agent, type Dispatcher, errors as undiciErrors, request } from 'undici';

import { AgentError, AgentErrorCode } from '../../errors/agent-errors';
import type { AssistantReply, ChatMessage, ToolDefinition } from './chat-messages';
import { providerMessage } from './completion-assembler';
import { readCompletion } from './completion-reader';

export interface ChatClientSettings {
  /** The server's OpenAI-compatible base, e.g. `http://127.0.0.1:11434/v1`; `/chat/completions` is appended. */
  readonly baseUrl: string;
  readonly model: string;
  /** The key, read from the environment variable `apiKeyEnv` names; absent for servers that need none. */
  readonly apiKey?: string;
  /** Named in error messages (never the key itself). */
  readonly apiKeyEnv?: string;
  /** The longest wait for the reply to start, and between two pieces of a streamed reply. */
  readonly requestTimeoutMs: number;
}

export interface CompletionRequest {
  readonly messages: readonly ChatMessage[];
  readonly tools: readonly ToolDefinition[];
}

export interface CompletionOptions {
  /** Each piece of the answer's text as it arrives. */
  readonly onText?: (delta: string) => void;
  readonly signal?: AbortSignal;
}

/** The most of an error reply read to find the provider's message. */
const ERROR_BODY_LIMIT = 64 * 1024;

/**
 * An OpenAI-compatible chat-completions client (OpenAI, Ollama, vLLM, llama.cpp server): it asks for a
 * streamed reply with the tools offered, and also takes a whole JSON reply from servers that ignore
 * `stream`. Every failure is an `AgentError` whose message says what to change; an abort through the
 * signal rejects with the signal's reason instead.
 */
export class ChatCompletionsClient {
  private readonly dispatcher: Dispatcher;
  private readonly url: string;

  constructor(private readonly settings: ChatClientSettings) {
    this.url = `${settings.baseUrl.replace(/\/+$/, '')}/chat/completions`;
    this.dispatcher = new Agent({ headersTimeout: settings.requestTimeoutMs, bodyTimeout: settings.requestTimeoutMs });
  }

  async complete(completion: CompletionRequest, options: CompletionOptions = {}): Promise<AssistantReply> {
    const body = JSON.stringify({
      model: this.settings.model,
      messages: completion.messages,
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
      throw this.failure(error, options.signal, () => this.connectError(error));
    }
    if (response.statusCode >= 400) throw await this.statusError(response);
    try {
      return await readCompletion(response.body, String(response.headers['content-type'] ?? ''), options.onText);
    } catch (error) {
      const reason = (error as NodeJS.ErrnoException).code ?? errorMessage(error);
      const cut = () =>
        new AgentError(AgentErrorCode.LlmRequestFailed, `the LLM server at ${this.settings.baseUrl} broke off its reply (${reason})`);
      throw this.failure(error, options.signal, cut);
    }
  }

  /** Closes the client's connections, so that a finished command does not wait for idle sockets. */
  close(): Promise<void> {
    return this.dispatcher.close();
  }

  private headers(): Record<string, string> {
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'text/event-stream, application/json' };
    if (this.settings.apiKey) headers.authorization = `Bearer ${this.settings.apiKey}`;
    return headers;
  }

  private async statusError(response: Dispatcher.ResponseData): Promise<AgentError> {
    const status = response.statusCode;
    const detail = await providerErrorDetail(response.body);
    const where = `the LLM server at ${this.settings.baseUrl}`;
    if (status === 401 || status === 403) {
      const fix = this.settings.apiKeyEnv
        ? `check the key in the environment variable ${this.settings.apiKeyEnv} (named by llm.apiKeyEnv)`
        : 'set llm.apiKeyEnv to the name of the environment variable that holds the key';
      return new AgentError(AgentErrorCode.LlmUnauthorized, `${where} refused the request (HTTP ${status}${detail}); ${fix}`);
    }
    if (status === 404) {
      return new AgentError(
        AgentErrorCode.LlmModelNotFound,
        `${where} answered HTTP 404${detail}: check that it serves model "${this.settings.model}" (llm.model or --model) and that llm.baseUrl ends in its API path (often /v1)`,
      );
    }
    return new AgentError(AgentErrorCode.LlmRequestFailed, `${where} answered HTTP ${status}${detail}`);
  }

  /** What to throw for an error of the request: the abort's reason, our own errors as they are, a timeout, or `otherwise`. */
  private failure(error: unknown, signal: AbortSignal | undefined, otherwise: () => AgentError): unknown {
    if (signal?.aborted) return signal.reason;
    if (error instanceof AgentError) return error;
    if (error instanceof undiciErrors.HeadersTimeoutError || error instanceof undiciErrors.BodyTimeoutError) {
      return new AgentError(
        AgentErrorCode.LlmTimeout,
        `the LLM server at ${this.settings.baseUrl} did not answer within ${this.settings.requestTimeoutMs} ms; raise llm.requestTimeoutMs for a slow model`,
      );
    }
    return otherwise();
  }

  private connectError(error: unknown): AgentError {
    const code = (error as NodeJS.ErrnoException).code;
    const reason = code ?? errorMessage(error);
    return new AgentError(
      AgentErrorCode.LlmUnreachable,
      `cannot reach the LLM server at ${this.settings.baseUrl} (${reason}); start it, or set llm.baseUrl in the configuration to where it runs`,
    );
  }
}

/** `: <provider message>` out of an error body (`{"error": {"message"}}`, `{"error": "..."}`, or text), or ''. */
async function providerErrorDetail(body: AsyncIterable<Buffer>): Promise<string> {
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
  message = providerMessage(message);
  return message ? `: ${message}` : '';
}
