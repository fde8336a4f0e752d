import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { LlmProvider } from '../../config/llm-config';
import { AgentError, AgentErrorCode } from '../../errors/agent-errors';
import { createChatModel } from './create-chat-model';

/**
 * A model server that answers 200 with an event stream and then sends only SSE keep-alive comments,
 * every 50 ms, forever (issue 43, item 9): each provider's `requestTimeoutMs` restarts on those bytes, so
 * only `llm.maxReplyMs` ends the reply, with `llm.timeout` naming it.
 */
let server: Server | undefined;
const streams = new Set<ServerResponse>();
afterEach(async () => {
  for (const stream of streams) stream.destroy();
  streams.clear();
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

async function keepAliveOnlyServer(): Promise<string> {
  server = createServer((req, res) => {
    req.resume();
    streams.add(res);
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.write(': keep-alive\n\n');
    const timer = setInterval(() => res.write(': keep-alive\n\n'), 50);
    res.on('close', () => clearInterval(timer));
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server?.address() as AddressInfo).port}`;
}

const CEILING = /did not finish its reply within llm\.maxReplyMs \(1500 ms\), however it streamed/;
/** What ends the reply: the ceiling; for gemini its SDK's own timeout, which already bounds the whole request. */
const PROVIDERS: readonly { provider: LlmProvider; path: string; endedBy: RegExp }[] = [
  { provider: 'openai-chat', path: '/v1', endedBy: CEILING },
  { provider: 'anthropic', path: '', endedBy: CEILING },
  { provider: 'openai-responses', path: '/v1', endedBy: CEILING },
  { provider: 'gemini', path: '', endedBy: /did not answer within 300 ms/ },
];

it.each(PROVIDERS)(
  '$provider: a stream of keep-alive comments alone ends in llm.timeout, not never',
  async ({ provider, path, endedBy }) => {
    const baseUrl = `${await keepAliveOnlyServer()}${path}`;
    const model = createChatModel({ provider, baseUrl, model: 'm', apiKey: 'k', requestTimeoutMs: 300, maxReplyMs: 1_500 });
    const started = Date.now();
    try {
      const reply = model.complete({ messages: [{ role: 'user', content: 'hi' }], tools: [] });
      const error: unknown = await reply.then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(AgentError);
      expect(error).toMatchObject({
        code: AgentErrorCode.LlmTimeout,
        message: expect.stringMatching(endedBy),
      });
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      await model.close();
    }
  },
  15_000,
);

it("an abort of the caller is the caller's, not a timeout", async () => {
  const baseUrl = `${await keepAliveOnlyServer()}/v1`;
  const model = createChatModel({ provider: 'openai-chat', baseUrl, model: 'm', requestTimeoutMs: 300, maxReplyMs: 60_000 });
  const abort = new AbortController();
  setTimeout(() => abort.abort(new Error('stopped by the user')), 300);
  try {
    await expect(model.complete({ messages: [{ role: 'user', content: 'hi' }], tools: [] }, { signal: abort.signal })).rejects.toThrow(
      'stopped by the user',
    );
  } finally {
    await model.close();
  }
});
