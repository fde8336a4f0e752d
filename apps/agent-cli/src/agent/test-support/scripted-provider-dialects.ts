import type { ServerResponse } from 'node:http';

import { pieces, type ScriptedDialect } from './scripted-llm-server';

/**
 * The native model APIs as the scripted server speaks them, each streamed the way its documentation shows,
 * for `startScriptedLlmServer(script, dialect)`.
 */

/** Writes one server-sent event; `event` names it where the API does. */
function sse(res: ServerResponse, data: unknown, event?: string): void {
  res.write(`${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}\n\n`);
}

function openStream(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
}

/**
 * Anthropic's Messages API (`POST /v1/messages`, https://docs.anthropic.com/en/api/messages-streaming):
 * message_start, a text block in deltas, each tool_use block with its input in `input_json_delta`
 * fragments, message_delta with the stop reason, message_stop; a ping between.
 */
export const ANTHROPIC_MESSAGES: ScriptedDialect = {
  basePath: '',
  accepts: (method, url) => method === 'POST' && url === '/v1/messages',
  answer(res, { text, toolCalls }, index) {
    openStream(res);
    const event = (type: string, data: Record<string, unknown>) => sse(res, { type, ...data }, type);
    event('message_start', {
      message: {
        id: `msg_${index}`,
        type: 'message',
        role: 'assistant',
        model: 'scripted',
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 10, output_tokens: 1 },
      },
    });
    event('ping', {});
    let block = 0;
    if (text) {
      event('content_block_start', { index: block, content_block: { type: 'text', text: '' } });
      for (const piece of pieces(text)) event('content_block_delta', { index: block, delta: { type: 'text_delta', text: piece } });
      event('content_block_stop', { index: block++ });
    }
    for (const call of toolCalls) {
      event('content_block_start', { index: block, content_block: { type: 'tool_use', id: call.id, name: call.name, input: {} } });
      for (const piece of pieces(call.arguments))
        event('content_block_delta', { index: block, delta: { type: 'input_json_delta', partial_json: piece } });
      event('content_block_stop', { index: block++ });
    }
    event('message_delta', {
      delta: { stop_reason: toolCalls.length > 0 ? 'tool_use' : 'end_turn', stop_sequence: null },
      usage: { output_tokens: 15 },
    });
    event('message_stop', {});
    res.end();
  },
};

/**
 * OpenAI's Responses API (`POST /v1/responses`, https://platform.openai.com/docs/api-reference/responses-streaming):
 * response.created, each output item added, its text or arguments in deltas, done, and response.completed
 * with the whole output; every event numbered.
 */
export const OPENAI_RESPONSES: ScriptedDialect = {
  basePath: '/v1',
  accepts: (method, url) => method === 'POST' && url === '/v1/responses',
  answer(res, { text, toolCalls }, index) {
    openStream(res);
    let sequence = 0;
    const event = (type: string, data: Record<string, unknown>) => sse(res, { type, sequence_number: sequence++, ...data }, type);
    const response = (status: string, output: unknown[]) => ({
      id: `resp_${index}`,
      object: 'response',
      status,
      model: 'scripted',
      output,
    });
    event('response.created', { response: response('in_progress', []) });
    const output: unknown[] = [];
    if (text) {
      const id = `msg_${index}`;
      const output_index = output.length;
      event('response.output_item.added', {
        output_index,
        item: { id, type: 'message', status: 'in_progress', role: 'assistant', content: [] },
      });
      event('response.content_part.added', {
        item_id: id,
        output_index,
        content_index: 0,
        part: { type: 'output_text', text: '', annotations: [] },
      });
      for (const delta of pieces(text)) event('response.output_text.delta', { item_id: id, output_index, content_index: 0, delta });
      event('response.output_text.done', { item_id: id, output_index, content_index: 0, text });
      const part = { type: 'output_text', text, annotations: [] };
      event('response.content_part.done', { item_id: id, output_index, content_index: 0, part });
      const item = { id, type: 'message', status: 'completed', role: 'assistant', content: [part] };
      event('response.output_item.done', { output_index, item });
      output.push(item);
    }
    toolCalls.forEach((call, i) => {
      const id = `fc_${index}_${i}`;
      const output_index = output.length;
      const added = { id, type: 'function_call', status: 'in_progress', call_id: call.id, name: call.name, arguments: '' };
      event('response.output_item.added', { output_index, item: added });
      for (const delta of pieces(call.arguments)) event('response.function_call_arguments.delta', { item_id: id, output_index, delta });
      event('response.function_call_arguments.done', { item_id: id, output_index, arguments: call.arguments });
      const item = { ...added, status: 'completed', arguments: call.arguments };
      event('response.output_item.done', { output_index, item });
      output.push(item);
    });
    event('response.completed', { response: response('completed', output) });
    res.end();
  },
};

/**
 * Gemini's `streamGenerateContent?alt=sse` (https://ai.google.dev/api/generate-content): data-only events,
 * each a GenerateContentResponse; text in several, each function call whole (with its id and a thought
 * signature, as Gemini 3 sends them) and the finish reason in the last.
 */
export const GEMINI_GENERATE_CONTENT: ScriptedDialect = {
  basePath: '',
  accepts: (method, url) => method === 'POST' && /^\/v1beta\/models\/[^/:]+:streamGenerateContent\?alt=sse$/.test(url),
  answer(res, { text, toolCalls }, index) {
    openStream(res);
    const chunk = (parts: unknown[], finishReason?: string) =>
      sse(res, {
        candidates: [{ content: { role: 'model', parts }, index: 0, ...(finishReason ? { finishReason } : {}) }],
        modelVersion: 'scripted',
        responseId: `resp_${index}`,
      });
    for (const piece of pieces(text)) chunk([{ text: piece }]);
    chunk(
      toolCalls.map((call) => ({
        functionCall: { id: call.id, name: call.name, args: JSON.parse(call.arguments || '{}') as unknown },
        thoughtSignature: `signature-of-${call.id}`,
      })),
      'STOP',
    );
    res.end();
  },
};
