import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ScriptedToolCall {
  readonly id?: string;
  readonly name: string;
  /** An object is sent as its JSON text; a string is sent as it is (to script malformed arguments). */
  readonly arguments: Record<string, unknown> | string;
}

/** One scripted answer of the fake model. */
export type ScriptedReply =
  /** A chat completion, streamed as SSE (default) or sent whole as JSON (`stream: false`), after `delayMs` when given. */
  | { readonly text?: string; readonly toolCalls?: readonly ScriptedToolCall[]; readonly stream?: boolean; readonly delayMs?: number }
  /** An HTTP error status with this body. */
  | { readonly status: number; readonly body: string }
  /** These bytes as the body, with this content type: for malformed streams. */
  | { readonly raw: string; readonly contentType: string }
  /** Headers are never sent: the client's timeout must end it. */
  | { readonly hang: true };

/** A chat-completions request body, as the fake model records it. */
interface ChatCompletionsBody {
  model: string;
  stream: boolean;
  messages: Array<Record<string, unknown>>;
  tools?: Array<{ type: string; function: { name: string; description: string; parameters: unknown } }>;
}

/** What the fake model was asked: the parsed JSON body, the path and the headers of each request, in order. */
export interface RecordedRequest<Body = ChatCompletionsBody> {
  readonly body: Body;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
}

export interface ScriptedLlmServer<Body = ChatCompletionsBody> {
  /** `http://127.0.0.1:<port>` and the API's base path (`/v1` for OpenAI's), for `llm.baseUrl`. */
  readonly baseUrl: string;
  readonly requests: RecordedRequest<Body>[];
  /** The most requests it was answering at once (with `delayMs`, how many calls the client made in parallel). */
  readonly peakInFlight: number;
  close(): Promise<void>;
}

/** A script: the replies in order, or a function of the request's number (0-based) for endless scripts. */
export type Script = readonly ScriptedReply[] | ((index: number) => ScriptedReply);

/** A scripted completion with every call's id and arguments text filled in, as a dialect streams it. */
export interface ScriptedCompletion {
  readonly text: string;
  readonly toolCalls: ReadonlyArray<{ readonly id: string; readonly name: string; readonly arguments: string }>;
  readonly stream: boolean;
}

/** One model API as the fake speaks it: where its base URL is, which requests are completions, and how a completion is sent. */
export interface ScriptedDialect {
  /** The API's path under the server's root that `baseUrl` ends in ('' for none). */
  readonly basePath: string;
  accepts(method: string, url: string): boolean;
  answer(res: ServerResponse, completion: ScriptedCompletion, index: number): void;
}

/** OpenAI's chat completions: text in several deltas, each tool call's arguments in fragments, a finish reason, `[DONE]`. */
const CHAT_COMPLETIONS: ScriptedDialect = {
  basePath: '/v1',
  accepts: (method, url) => method === 'POST' && url === '/v1/chat/completions',
  answer: answerChatCompletion,
};

/**
 * A scripted model server on 127.0.0.1, port 0: the only mock the tests use (no real LLM can run here).
 * It answers each request the dialect accepts (here OpenAI-compatible `POST /v1/chat/completions`)
 * with the next scripted reply, streamed the way that API does, and records every request. A request past
 * the end of the script gets HTTP 500, so a test sees an unexpected extra turn.
 */
export function startScriptedLlmServer(script: Script): Promise<ScriptedLlmServer> {
  return startScriptedServer<ChatCompletionsBody>(script, CHAT_COMPLETIONS);
}

/** The scripted server speaking another API (scripted-provider-dialects.ts); `Body` is that API's request body. */
export async function startScriptedServer<Body>(script: Script, dialect: ScriptedDialect): Promise<ScriptedLlmServer<Body>> {
  const requests: RecordedRequest<Body>[] = [];
  let inFlight = 0;
  let peakInFlight = 0;
  const server = createServer((req, res) => {
    inFlight += 1;
    peakInFlight = Math.max(peakInFlight, inFlight);
    res.once('close', () => (inFlight -= 1));
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    req.on('end', () => {
      if (!dialect.accepts(req.method ?? '', req.url ?? '')) {
        res
          .writeHead(404, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: { message: `no route ${req.method} ${req.url}` } }));
        return;
      }
      const index = requests.length;
      requests.push({ body: JSON.parse(text) as Body, url: req.url ?? '', headers: req.headers });
      const reply = typeof script === 'function' ? script(index) : script[index];
      if (reply === undefined) {
        res
          .writeHead(500, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: { message: `the script has no reply ${index + 1}` } }));
        return;
      }
      if ('delayMs' in reply && reply.delayMs) setTimeout(() => answer(res, reply, index, dialect), reply.delayMs);
      else answer(res, reply, index, dialect);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}${dialect.basePath}`,
    requests,
    get peakInFlight() {
      return peakInFlight;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function answer(res: ServerResponse, reply: ScriptedReply, index: number, dialect: ScriptedDialect): void {
  if ('hang' in reply) return;
  if ('status' in reply) {
    res.writeHead(reply.status, { 'content-type': 'application/json' }).end(reply.body);
    return;
  }
  if ('raw' in reply) {
    res.writeHead(200, { 'content-type': reply.contentType }).end(reply.raw);
    return;
  }
  const toolCalls = (reply.toolCalls ?? []).map((call, i) => ({
    id: call.id ?? `call_${index}_${i}`,
    name: call.name,
    arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments),
  }));
  dialect.answer(res, { text: reply.text ?? '', toolCalls, stream: reply.stream !== false }, index);
}

function answerChatCompletion(res: ServerResponse, reply: ScriptedCompletion, index: number): void {
  const { toolCalls } = reply;
  const finishReason = toolCalls.length > 0 ? 'tool_calls' : 'stop';
  if (!reply.stream) {
    const message = {
      role: 'assistant',
      content: reply.text || null,
      ...(toolCalls.length > 0
        ? { tool_calls: toolCalls.map(({ id, name, arguments: args }) => ({ id, type: 'function', function: { name, arguments: args } })) }
        : {}),
    };
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(
        JSON.stringify({ id: `cmpl-${index}`, object: 'chat.completion', choices: [{ index: 0, message, finish_reason: finishReason }] }),
      );
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const send = (delta: Record<string, unknown>, finish: string | null = null) =>
    res.write(
      `data: ${JSON.stringify({ id: `cmpl-${index}`, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`,
    );
  send({ role: 'assistant', content: '' });
  for (const piece of pieces(reply.text)) send({ content: piece });
  toolCalls.forEach((call, i) => {
    send({ tool_calls: [{ index: i, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] });
    for (const piece of pieces(call.arguments)) send({ tool_calls: [{ index: i, function: { arguments: piece } }] });
  });
  send({}, finishReason);
  res.end('data: [DONE]\n\n');
}

/** Text cut in three, as a model streams it. */
export function pieces(text: string): string[] {
  const size = Math.max(1, Math.ceil(text.length / 3));
  const result: string[] = [];
  for (let i = 0; i < text.length; i += size) result.push(text.slice(i, i + size));
  return result;
}

/** A base URL on loopback where nothing listens (a port bound and released), for refused-connection tests. */
export async function unreachableBaseUrl(): Promise<string> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return `http://127.0.0.1:${port}/v1`;
}
