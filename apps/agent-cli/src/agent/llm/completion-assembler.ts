import { AgentError, AgentErrorCode } from '../../errors/agent-errors';
import type { AssistantReply, RequestedToolCall } from './chat-messages';
import { reportedError } from './llm-failure';

interface PartialToolCall {
  id?: string;
  name: string;
  arguments: string;
}

type Json = Record<string, unknown>;

/**
 * Builds one `AssistantReply` out of a streamed chat completion's chunks: text deltas are handed back as
 * they come (to be shown at once), tool calls are put together by their `index` from an id, a name and
 * argument fragments, and the finish reason is kept. Anything not shaped like a chunk is a
 * `llm.malformed_response` naming what was wrong, never quoting the reply (it may hold user data).
 */
export class CompletionAssembler {
  private text = '';
  private readonly toolCalls = new Map<number, PartialToolCall>();
  private finishReason: string | undefined;

  /** Takes one parsed `data:` object of the stream; returns its text delta ('' when it has none). */
  chunk(value: unknown): string {
    const chunk = object(value, 'a stream chunk');
    throwProviderError(chunk);
    const choices = chunk.choices ?? [];
    if (!Array.isArray(choices)) throw malformed('"choices" of a stream chunk is not a list');
    let delta = '';
    for (const choice of choices.map((c) => object(c, 'a choice'))) {
      if (typeof choice.finish_reason === 'string') this.finishReason = choice.finish_reason;
      if (choice.delta === undefined || choice.delta === null) continue;
      const message = object(choice.delta, 'a choice\'s "delta"');
      delta += optionalString(message.content, '"delta.content"');
      this.addToolCallDeltas(message.tool_calls);
    }
    this.text += delta;
    return delta;
  }

  /** Takes a whole, non-streamed completion (servers that ignore `stream: true`); returns its text. */
  completion(value: unknown): string {
    const completion = object(value, 'the reply');
    throwProviderError(completion);
    if (!Array.isArray(completion.choices) || completion.choices.length === 0) throw malformed('the reply has no "choices"');
    const choice = object(completion.choices[0], 'a choice');
    const message = object(choice.message, 'a choice\'s "message"');
    if (typeof choice.finish_reason === 'string') this.finishReason = choice.finish_reason;
    this.text = optionalString(message.content, '"message.content"');
    this.addToolCallDeltas(message.tool_calls);
    return this.text;
  }

  /** Whether a finish reason has arrived: the model said it is done. */
  get finished(): boolean {
    return this.finishReason !== undefined;
  }

  reply(): AssistantReply {
    const toolCalls: RequestedToolCall[] = [...this.toolCalls.entries()]
      .sort(([a], [b]) => a - b)
      .map(([index, call]) => {
        if (call.name === '') throw malformed(`tool call ${index} has no function name`);
        return { id: call.id ?? `call_${index}`, name: call.name, arguments: call.arguments };
      });
    return { text: this.text, toolCalls, finishReason: this.finishReason };
  }

  private addToolCallDeltas(value: unknown): void {
    if (value === undefined || value === null) return;
    if (!Array.isArray(value)) throw malformed('"tool_calls" is not a list');
    value.forEach((item, position) => {
      const delta = object(item, 'a tool call');
      // Some servers send each call whole and leave out the index: its place in the list is its index.
      const index = delta.index ?? position;
      if (!Number.isSafeInteger(index) || (index as number) < 0) throw malformed('a tool call\'s "index" is not a whole number');
      const call = this.toolCalls.get(index as number) ?? { name: '', arguments: '' };
      if (delta.id !== undefined && delta.id !== null) {
        if (typeof delta.id !== 'string') throw malformed('a tool call\'s "id" is not a string');
        call.id = delta.id;
      }
      const fn = delta.function === undefined || delta.function === null ? {} : object(delta.function, 'a tool call\'s "function"');
      call.name += optionalString(fn.name, '"function.name"');
      call.arguments += argumentsText(fn.arguments);
      this.toolCalls.set(index as number, call);
    });
  }
}

/** Arguments are JSON text on the wire; a server that sends the object itself is met halfway. */
function argumentsText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'object') return JSON.stringify(value);
  throw malformed('"function.arguments" is neither text nor an object');
}

/** OpenAI-compatible servers report some failures as `{"error": ...}` inside a 200 reply or stream. */
function throwProviderError(value: Json): void {
  if (value.error === undefined || value.error === null) return;
  const error = value.error;
  const message =
    typeof error === 'string' ? error : typeof (error as Json).message === 'string' ? ((error as Json).message as string) : 'no message';
  throw reportedError(message);
}

function object(value: unknown, what: string): Json {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw malformed(`${what} is not a JSON object`);
  return value as Json;
}

function optionalString(value: unknown, what: string): string {
  if (value === undefined || value === null) return '';
  if (typeof value !== 'string') throw malformed(`${what} is not a string`);
  return value;
}

export function malformed(problem: string): AgentError {
  return new AgentError(AgentErrorCode.LlmMalformedResponse, `the LLM server's reply is not a chat completion: ${problem}`);
}
