import { type CreateMessageRequestParams, type CreateMessageResult, type SamplingRefusal } from '@toolmesh/mcp-client';
import { errorMessage, printable } from '@toolmesh/protocol';

/** A message as the host's model takes it: a role and plain text (the chat-completions shape). */
export interface SamplingMessage {
  readonly role: 'system' | 'user' | 'assistant';
  readonly content: string;
}

/** The configured LLM, as sampling uses it: one completion without tools. */
export interface SamplingModel {
  readonly model: string;
  complete(messages: readonly SamplingMessage[], signal: AbortSignal): Promise<string>;
}

/** Whether a sampling request may run: decided like a side effect (the cap, `--yes`, the person at the terminal). */
export interface SamplingGate {
  decide(
    server: string,
    summary: string,
    signal: AbortSignal,
  ): Promise<{ readonly allowed: true } | { readonly allowed: false; readonly reason: string }>;
}

/** Up to this much of the request is shown when asking. */
const SHOWN_CHARS = 600;

/**
 * Answers a server's `sampling/createMessage` through the configured LLM (SPEC A16): the request is
 * shown and decided by the gate first, then its messages (text only: other content is named, not sent)
 * go to the model with the server's system prompt. Without a model, or refused, the server gets an
 * error saying why. `maxTokens`, temperature and model preferences are not passed on: the model is the
 * one configured, with its own settings.
 */
export async function answerSampling(
  server: string,
  params: CreateMessageRequestParams,
  model: SamplingModel | { readonly unavailable: string },
  gate: SamplingGate,
  signal: AbortSignal,
): Promise<CreateMessageResult | SamplingRefusal> {
  if ('unavailable' in model) return { refused: `this client cannot sample: ${model.unavailable}` };
  const messages: SamplingMessage[] = [
    ...(params.systemPrompt ? [{ role: 'system' as const, content: params.systemPrompt }] : []),
    ...params.messages.map((m) => ({ role: m.role, content: contentText(m.content) })),
  ];
  const decision = await gate.decide(server, summary(messages, params.maxTokens), signal);
  if (!decision.allowed) return { refused: decision.reason };
  try {
    const text = await model.complete(messages, signal);
    return { model: model.model, role: 'assistant', content: { type: 'text', text }, stopReason: 'endTurn' };
  } catch (error) {
    return { refused: `the model failed: ${errorMessage(error)}` };
  }
}

type SamplingContent = CreateMessageRequestParams['messages'][number]['content'];

function contentText(content: SamplingContent): string {
  const blocks = Array.isArray(content) ? content : [content];
  return blocks.map((block) => (block.type === 'text' ? block.text : `[${block.type} content, not sent to the model]`)).join('\n');
}

/** What the person sees before deciding: the messages, escaped and cut, and the token budget asked for. */
function summary(messages: readonly SamplingMessage[], maxTokens: number): string {
  const lines = messages.map((m) => `  ${m.role}: ${printable(m.content, SHOWN_CHARS)}`);
  return `${lines.join('\n')}\n  (max tokens asked: ${maxTokens})`;
}
