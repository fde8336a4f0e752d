import { ApiError, type Content, GoogleGenAI, type Part } from '@google/genai';

import { argumentsObject, type AssistantReply, type ChatMessage, type RequestedToolCall } from './chat-messages';
import type { ChatModel, CompletionOptions, CompletionRequest } from './chat-model';
import { malformed } from './completion-assembler';
import { brokenOff, statusFailure, timedOut, unreachable } from './llm-failure';
import type { ModelSettings } from './model-settings';

/**
 * The `gemini` provider: Google's Gemini API through its official SDK (`streamGenerateContent`). Gemini
 * names a function response by the function's name, and may send calls without ids: those get ids of
 * ours, and each call's thought signature travels with it in the conversation, as Gemini wants it back.
 */
export class GeminiModel implements ChatModel {
  private readonly client: GoogleGenAI;
  /** Numbers the calls Gemini sent without an id, for the whole conversation. */
  private unnamedCalls = 0;

  constructor(private readonly settings: ModelSettings) {
    this.client = new GoogleGenAI({
      apiKey: settings.apiKey,
      // The SDK uses the process's fetch, whose idle keep-alive socket would hold a finished command open
      // for seconds: one connection per request instead (a turn takes far longer than a handshake).
      httpOptions: { baseUrl: settings.baseUrl, timeout: settings.requestTimeoutMs, headers: { connection: 'close' } },
    });
  }

  async complete(request: CompletionRequest, options: CompletionOptions = {}): Promise<AssistantReply> {
    const { systemInstruction, contents } = geminiContents(request.messages);
    let text = '';
    const toolCalls: RequestedToolCall[] = [];
    let finishReason: string | undefined;
    try {
      const stream = await this.client.models.generateContentStream({
        model: this.settings.model,
        contents,
        config: {
          ...(systemInstruction ? { systemInstruction } : {}),
          ...(request.tools.length > 0
            ? {
                tools: [
                  {
                    functionDeclarations: request.tools.map(({ function: fn }) => ({
                      name: fn.name,
                      description: fn.description,
                      parametersJsonSchema: fn.parameters,
                    })),
                  },
                ],
              }
            : {}),
          ...(this.settings.maxOutputTokens ? { maxOutputTokens: this.settings.maxOutputTokens } : {}),
          ...(options.signal ? { abortSignal: options.signal } : {}),
        },
      });
      for await (const chunk of stream) {
        const candidate = chunk.candidates?.[0];
        if (candidate?.finishReason) finishReason = candidate.finishReason;
        for (const part of candidate?.content?.parts ?? []) {
          if (part.functionCall) {
            const { id, name, args } = part.functionCall;
            toolCalls.push({
              id: id ?? `call_${++this.unnamedCalls}`,
              name: name ?? '',
              arguments: JSON.stringify(args ?? {}),
              ...(part.thoughtSignature ? { replay: part.thoughtSignature } : {}),
            });
          } else if (part.text && !part.thought) {
            text += part.text;
            options.onText?.(part.text);
          }
        }
      }
    } catch (error) {
      throw this.failure(error, options.signal);
    }
    // A stream cut short (a server that died mid-reply) must not pass for a complete answer.
    if (finishReason === undefined) throw malformed('the stream ended without a finish reason');
    return { text, toolCalls, finishReason };
  }

  async close(): Promise<void> {
    // Nothing is left open: each request's connection closed with it.
  }

  private failure(error: unknown, signal: AbortSignal | undefined): unknown {
    if (signal?.aborted) return signal.reason;
    if (error instanceof ApiError) return statusFailure(this.settings, error.status, apiMessage(error.message));
    if ((error as Error).name === 'AbortError' || (error as Error).name === 'TimeoutError') return timedOut(this.settings);
    if ((error as Error).message === 'fetch failed') return unreachable(this.settings, error);
    return brokenOff(this.settings, error);
  }
}

/** The SDK puts the whole error body in the message: its `error.message` is what the user needs. */
function apiMessage(text: string): string {
  const start = text.indexOf('{');
  if (start < 0) return text;
  try {
    const found = (JSON.parse(text.slice(start)) as { error?: { message?: unknown } }).error?.message;
    return typeof found === 'string' ? found : text;
  } catch {
    return text;
  }
}

/**
 * The conversation as Gemini contents: the system prompt as the system instruction, the calls as
 * `functionCall` parts of the model, the results as `functionResponse` parts of the user with their images
 * (and audio) after them as inline data, and contents of one role in a row joined into one.
 */
function geminiContents(conversation: readonly ChatMessage[]): { systemInstruction: string; contents: Content[] } {
  const system: string[] = [];
  const contents: Content[] = [];
  const callNames = new Map<string, string>();
  const add = (role: 'user' | 'model', parts: Part[]) => {
    if (parts.length === 0) return;
    const last = contents.at(-1);
    if (last?.role === role) last.parts?.push(...parts);
    else contents.push({ role, parts });
  };
  for (const message of conversation) {
    if (message.role === 'system') system.push(message.content);
    else if (message.role === 'user') add('user', [{ text: message.content }]);
    else if (message.role === 'assistant') {
      const calls = message.tool_calls ?? [];
      for (const call of calls) callNames.set(call.id, call.function.name);
      add('model', [
        ...(message.content ? [{ text: message.content }] : []),
        ...calls.map((call) => ({
          functionCall: { id: call.id, name: call.function.name, args: argumentsObject(call.function.arguments) },
          ...(call.replay ? { thoughtSignature: call.replay } : {}),
        })),
      ]);
    } else {
      add('user', [
        {
          functionResponse: {
            id: message.tool_call_id,
            name: callNames.get(message.tool_call_id) ?? message.tool_call_id,
            response: message.isError ? { error: message.content } : { output: message.content },
          },
        },
        ...(message.media ?? []).map((media) => ({
          inlineData: { mimeType: media.type === 'image' ? media.mimeType : `audio/${media.format}`, data: media.data },
        })),
      ]);
    }
  }
  return { systemInstruction: system.join('\n\n'), contents };
}
