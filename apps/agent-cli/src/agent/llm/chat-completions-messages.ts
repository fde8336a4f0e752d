import type { ChatMessage, ToolMedia, WireToolCall } from './chat-messages';

/** A part of a user message on the wire: text, an image (ours are `data:` URLs), or audio (OpenAI's `input_audio`). */
type ContentPart =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'image_url'; readonly image_url: { readonly url: string } }
  | { readonly type: 'input_audio'; readonly input_audio: { readonly data: string; readonly format: 'wav' | 'mp3' } };

type WireMessage =
  | Exclude<ChatMessage, { role: 'tool' }>
  | { readonly role: 'tool'; readonly tool_call_id: string; readonly content: string }
  | { readonly role: 'user'; readonly content: readonly ContentPart[] };

/**
 * The conversation as chat completions take it. A `tool` message takes only text, so the media of a run
 * of tool results follow it as one user message, each result's media after a line naming its call.
 */
export function chatCompletionsMessages(messages: readonly ChatMessage[]): WireMessage[] {
  const wire: WireMessage[] = [];
  let media: ContentPart[] = [];
  const flushMedia = () => {
    if (media.length > 0) wire.push({ role: 'user', content: media });
    media = [];
  };
  for (const message of messages) {
    if (message.role !== 'tool') {
      flushMedia();
      wire.push(
        message.role === 'assistant' && message.tool_calls ? { ...message, tool_calls: message.tool_calls.map(wireCall) } : message,
      );
      continue;
    }
    wire.push({ role: 'tool', tool_call_id: message.tool_call_id, content: message.content });
    if (message.media?.length)
      media.push({ type: 'text', text: `Returned by tool call ${message.tool_call_id}:` }, ...message.media.map(contentPart));
  }
  flushMedia();
  return wire;
}

/** A call as chat completions take it: without what another provider wanted replayed. */
function wireCall({ id, type, function: fn }: WireToolCall): WireToolCall {
  return { id, type, function: fn };
}

function contentPart(media: ToolMedia): ContentPart {
  return media.type === 'image'
    ? { type: 'image_url', image_url: { url: `data:${media.mimeType};base64,${media.data}` } }
    : { type: 'input_audio', input_audio: { data: media.data, format: media.format } };
}
