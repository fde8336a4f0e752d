import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import { ProtocolError } from '@modelcontextprotocol/client';
import { Cancellation, type JSONRPCMessage } from '@toolmesh/protocol';
import { eventually } from '@toolmesh/test-peers/process-table';
import { StreamableHttpClientTransport } from '@toolmesh/transport-http/client';
import { Agent } from 'undici';

import { type ExchangedCall, exchangeRequest } from './exchanged-call';
import type { ServerRequestHandlers } from './server-requests';

/**
 * A gateway's forwarded call over the transport's exchange (issue 28), against a scripted Streamable HTTP
 * server: what the server asks during the call is answered by the call's own handlers, with a message of
 * its own; the answer is passed on or thrown as the SDK would; a cancelled call is told to a 2025 server.
 */
let dispatcher: Agent;
let server: Server;
let url: URL;
/** The call's reply: the events of its stream, or a JSON body. */
let reply: (res: ServerResponse) => void;
let posted: JSONRPCMessage[];

beforeAll(async () => {
  dispatcher = new Agent();
  server = createServer(async (req: IncomingMessage, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    const message = JSON.parse(body) as JSONRPCMessage;
    posted.push(message);
    if ('method' in message && 'id' in message) return reply(res);
    res.writeHead(202).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`);
});
/** Closed after each test, not after each call: a cancellation is still on its way when the call has ended. */
let transports: StreamableHttpClientTransport[];
/** What the stream brought that the call did not take: the client's (`onmessage`). */
let others: JSONRPCMessage[];
beforeEach(() => {
  posted = [];
  transports = [];
  others = [];
});
afterEach(() => Promise.all(transports.map((transport) => transport.close())));
afterAll(async () => {
  server.closeAllConnections();
  await dispatcher.destroy();
  await new Promise((resolve) => server.close(resolve));
});

const event = (message: unknown) => `event: message\ndata: ${JSON.stringify(message)}\n\n`;
const answer = (result: unknown) => ({ jsonrpc: '2.0', id: 'x1', result });
const CONTENT = { content: [{ type: 'text', text: 'done' }] };

async function call(handlers: ServerRequestHandlers = {}, overrides: Partial<ExchangedCall> = {}) {
  const transport = new StreamableHttpClientTransport(url, { dispatcher, listen: false });
  transport.onmessage = (message) => others.push(message);
  await transport.start();
  transports.push(transport);
  return exchangeRequest(transport, {
    id: 'x1',
    method: 'tools/call',
    params: { name: 'ask', arguments: {} },
    serverRequests: handlers,
    tellsCancellation: true,
    ...overrides,
  });
}

/** Writes the server's request on the stream, then the answer (`result`) once the client has answered it. */
function askThenAnswer(request: Record<string, unknown>, result: object = CONTENT): (res: ServerResponse) => void {
  return (res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' }).write(event({ jsonrpc: '2.0', ...request }));
    void eventually(() => posted.some((message) => 'id' in message && message.id === request.id && !('method' in message)), 5000).then(() =>
      res.end(event(answer(result))),
    );
  };
}

const answerTo = (id: number) => posted.find((message) => 'id' in message && message.id === id && !('method' in message));

describe('exchangeRequest', () => {
  it("answers the server's elicitation with the call's own handler, then returns the call's result", async () => {
    const asked: unknown[] = [];
    reply = askThenAnswer({ id: 5, method: 'elicitation/create', params: { message: 'name?', requestedSchema: { type: 'object' } } });
    const result = await call({
      elicitation: async (params) => {
        asked.push(params);
        return { action: 'accept', content: { name: 'Ada' } };
      },
    });
    expect(result).toEqual(CONTENT);
    expect(asked).toEqual([{ message: 'name?', requestedSchema: { type: 'object' } }]);
    expect(answerTo(5)).toEqual({ jsonrpc: '2.0', id: 5, result: { action: 'accept', content: { name: 'Ada' } } });
  });

  it.each([
    ['a method it does not serve', { id: 6, method: 'sampling/createMessage', params: {} }, { code: -32601 }],
    ['no params', { id: 6, method: 'elicitation/create' }, { code: -32602 }],
  ])('answers %s with the JSON-RPC error', async (_what, request, error) => {
    reply = askThenAnswer(request);
    await call({ elicitation: async () => ({ action: 'decline' }) });
    expect(answerTo(6)).toMatchObject({ error });
  });

  it("passes on a handler's coded refusal, data included", async () => {
    reply = askThenAnswer({ id: 7, method: 'roots/list' });
    const refusal = Object.assign(new Error('the caller did not declare roots'), {
      code: -32021,
      data: { requiredCapabilities: { roots: {} } },
    });
    await call({ roots: () => Promise.reject(refusal) });
    expect(answerTo(7)).toEqual({
      jsonrpc: '2.0',
      id: 7,
      error: { code: -32021, message: 'the caller did not declare roots', data: { requiredCapabilities: { roots: {} } } },
    });
  });

  it("aborts a handler's signal when the server cancels its request", async () => {
    let cancelled = false;
    reply = (res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(
        event({ jsonrpc: '2.0', id: 8, method: 'elicitation/create', params: { message: 'm', requestedSchema: { type: 'object' } } }),
      );
      setTimeout(() => res.write(event({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 8 } })), 50);
      void eventually(() => cancelled, 5000).then(() => res.end(event(answer(CONTENT))));
    };
    await call({
      elicitation: (_params, signal) =>
        new Promise((_resolve, reject) =>
          signal.addEventListener('abort', () => {
            cancelled = true;
            reject(signal.reason as Error);
          }),
        ),
    });
    expect(cancelled).toBe(true);
  });

  it('returns an input_required result as it is, and throws a JSON-RPC error or a result without content', async () => {
    const inputRequired = { resultType: 'input_required', inputRequests: {}, requestState: 's' };
    reply = (res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer(inputRequired)));
    await expect(call()).resolves.toEqual(inputRequired);

    const refusal = { jsonrpc: '2.0', id: 'x1', error: { code: -32602, message: 'no such tool', data: { tool: 'ask' } } };
    reply = (res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(refusal));
    const thrown = await call().catch((error: unknown) => error);
    expect(thrown).toBeInstanceOf(ProtocolError);
    expect(thrown).toMatchObject({ code: -32602, data: { tool: 'ask' } });

    reply = (res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer({ text: 'no content' })));
    await expect(call()).rejects.toMatchObject({ code: -32603 });
  });

  it.each([
    [true, ['tools/call', 'notifications/cancelled']],
    [false, ['tools/call']],
  ])(
    'tells the server of a cancelled call with notifications/cancelled only for a 2025 server (%s)',
    async (tellsCancellation, methods) => {
      reply = (res) => res.writeHead(200, { 'content-type': 'text/event-stream' }).write(': working\n\n');
      const cancel = new Cancellation();
      const running = call({}, { cancellation: cancel, tellsCancellation });
      await eventually(() => posted.length === 1, 5000);
      cancel.abort(new Error('the caller hung up'));
      await expect(running).rejects.toThrow('the caller hung up');
      if (tellsCancellation) await eventually(() => posted.length === 2, 5000);
      expect(posted.map((message) => ('method' in message ? message.method : 'answer'))).toEqual(methods);
      if (tellsCancellation) expect(posted[1]).toMatchObject({ params: { requestId: 'x1', reason: 'the caller hung up' } });
    },
  );

  it("tells onProgress the call's progress notifications, its own token only, before the answer (issue 44)", async () => {
    const progress = (progressToken: string, value: number) => ({
      jsonrpc: '2.0',
      method: 'notifications/progress',
      params: { progressToken, progress: value, total: 2, message: `step ${value}` },
    });
    reply = (res) =>
      res
        .writeHead(200, { 'content-type': 'text/event-stream' })
        .end(event(progress('x1', 1)) + event(progress('other', 9)) + event(progress('x1', 2)) + event(answer(CONTENT)));
    const told: unknown[] = [];
    expect(await call({}, { onProgress: (update) => told.push(update) })).toEqual(CONTENT);
    expect(told).toEqual([
      { progress: 1, total: 2, message: 'step 1' },
      { progress: 2, total: 2, message: 'step 2' },
    ]);
    // Another token's notification is not this call's: it is left to the client, as before.
    expect(others).toEqual([progress('other', 9)]);
  });

  it("tells onLog the log messages on the call's stream, in order before the answer, a malformed one dropped (issue 44)", async () => {
    const log = (params: Record<string, unknown>) => event({ jsonrpc: '2.0', method: 'notifications/message', params });
    reply = (res) =>
      res
        .writeHead(200, { 'content-type': 'text/event-stream' })
        .end(
          log({ level: 'info', data: 'started' }) +
            log({ level: 'loud', data: 'not a level' }) +
            log({ level: 'error', logger: 'db', data: { code: 7 } }) +
            event(answer(CONTENT)),
        );
    const told: unknown[] = [];
    expect(await call({}, { onLog: (message) => told.push(message) })).toEqual(CONTENT);
    expect(told).toEqual([
      { level: 'info', data: 'started' },
      { level: 'error', logger: 'db', data: { code: 7 } },
    ]);
    expect(others).toEqual([]);
  });

  it("relays a prompts/get and a resources/read as a call, the server's elicitation to the request's own handler, each result checked for its own array (issue 44)", async () => {
    const PROMPT = { messages: [{ role: 'user', content: { type: 'text', text: 'Hello, Ada' } }] };
    reply = askThenAnswer(
      { id: 8, method: 'elicitation/create', params: { message: 'name?', requestedSchema: { type: 'object' } } },
      PROMPT,
    );
    const elicitation = async () => ({ action: 'accept' as const, content: { name: 'Ada' } });
    expect(await call({ elicitation }, { method: 'prompts/get', params: { name: 'greet' } })).toEqual(PROMPT);
    expect(posted[0]).toMatchObject({ method: 'prompts/get', params: { name: 'greet' } });
    expect(answerTo(8)).toEqual({ jsonrpc: '2.0', id: 8, result: { action: 'accept', content: { name: 'Ada' } } });
    reply = (res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer(CONTENT)));
    await expect(call({}, { method: 'resources/read', params: { uri: 'test://a' } })).rejects.toThrow(
      'the server answered resources/read with a result that has no contents array',
    );
  });

  it('fails its promise, never throws, when the transport throws instead of rejecting', async () => {
    const transport = new StreamableHttpClientTransport(url, { dispatcher, listen: false });
    transport.exchange = () => {
      throw new Error('the transport broke');
    };
    let running: Promise<unknown> | undefined;
    expect(() => {
      running = exchangeRequest(transport, {
        id: 'x1',
        method: 'tools/call',
        params: { name: 'ask', arguments: {} },
        serverRequests: {},
        tellsCancellation: false,
      });
    }).not.toThrow();
    await expect(running).rejects.toThrow('the transport broke');
  });
});
