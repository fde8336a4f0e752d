import { type SseParseEvent, SseParser } from '@toolmesh/transport-http/client';

import type { AssistantReply } from './chat-messages';
import { CompletionAssembler, malformed } from './completion-assembler';

type Body = AsyncIterable<Buffer> | Iterable<Buffer>;

/** A stream chunk is one delta; even a tool call's whole arguments sent at once stay far below this. */
const MAX_CHUNK_BYTES = 16 * 1024 * 1024;

/**
 * Reads a chat-completions reply body into one `AssistantReply`, handing on the text as it arrives:
 * an SSE stream (`data: {chunk}` ... `data: [DONE]`), or a whole JSON completion from a server that
 * ignores `stream: true`. A stream sent under another content type is still read as a stream.
 */
export async function readCompletion(body: Body, contentType: string, onText?: (delta: string) => void): Promise<AssistantReply> {
  const assembler = new CompletionAssembler();
  if (contentType.includes('text/event-stream')) await readStream(body, assembler, onText);
  else await readWhole(body, assembler, onText);
  return assembler.reply();
}

async function readStream(body: Body, assembler: CompletionAssembler, onText?: (delta: string) => void): Promise<void> {
  const parser = new SseParser(MAX_CHUNK_BYTES);
  const decoder = new TextDecoder();
  let done = false;
  // Every event's data counts, whatever its type: chat-completions streams send `data:` lines only.
  const take = (events: SseParseEvent[]) => {
    for (const item of events) {
      if (done) return;
      // Only a chunk too large is dropped: this parser is given no depth to measure.
      if (item.kind !== 'event') throw malformed(`a stream chunk is larger than ${MAX_CHUNK_BYTES} bytes`);
      const { data } = item.event;
      if (data.trim() === '[DONE]') {
        done = true;
        return;
      }
      const delta = assembler.chunk(parseJson(data, 'a stream chunk'));
      if (delta) onText?.(delta);
    }
  };
  for await (const chunk of body) take(parser.push(decoder.decode(chunk, { stream: true })));
  take(parser.push(decoder.decode()));
  take(parser.end());
  // A stream cut short (a server that died mid-reply) must not pass for a complete answer.
  if (!done && !assembler.finished) throw malformed('the stream ended without a finish reason or [DONE]');
}

/** A reply that is not an event stream: a whole JSON completion, or an event stream sent as another type. */
async function readWhole(body: Body, assembler: CompletionAssembler, onText?: (delta: string) => void): Promise<void> {
  let text = '';
  const decoder = new TextDecoder();
  for await (const chunk of body) text += decoder.decode(chunk, { stream: true });
  text += decoder.decode();
  if (text.trimStart().startsWith('data:')) {
    return readStream([Buffer.from(text)], assembler, onText);
  }
  const content = assembler.completion(parseJson(text, 'the reply'));
  if (content) onText?.(content);
}

function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw malformed(`${what} is not valid JSON`);
  }
}
