import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import { Cancellation, type JSONRPCMessage, type JSONRPCRequest } from '@toolmesh/protocol';
import { eventually } from '@toolmesh/test-peers/process-table';
import { Agent } from 'undici';

import { HttpClientErrorCode } from './http-client-errors';
import { StreamableHttpClientTransport } from './streamable-http-client-transport';

/**
 * `exchange`: one request, its answer returned (issue 28's forwarded call), against a scripted server
 * that answers as a real one may: a JSON body, an event stream with other messages before the answer,
 * a stream to resume, a stream that breaks, a refusal.
 */
let dispatcher: Agent;
let server: Server;
let url: URL;
let reply: (req: IncomingMessage, res: ServerResponse, message: JSONRPCMessage | undefined) => void;
/** What the server received: method and body of each request. */
let received: Array<{ method: string; message: JSONRPCMessage | undefined }>;

beforeAll(async () => {
  dispatcher = new Agent({ keepAliveTimeout: 10_000 });
  server = createServer(async (req, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    const message = body ? (JSON.parse(body) as JSONRPCMessage) : undefined;
    received.push({ method: req.method ?? '', message });
    reply(req, res, message);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`);
});
beforeEach(() => {
  received = [];
});
afterAll(async () => {
  // Some replies here never end (a stream the client closes or abandons).
  server.closeAllConnections();
  await dispatcher.destroy();
  await new Promise((resolve) => server.close(resolve));
});

const CALL: JSONRPCRequest = { jsonrpc: '2.0', id: 'x1', method: 'tools/call', params: { name: 'echo', arguments: { text: 'hi' } } };
const ANSWER = { jsonrpc: '2.0', id: 'x1', result: { content: [{ type: 'text', text: 'hi' }] } };
/** An answer whose result nests 300 levels deep: within the size limit, beyond the depth every parser here accepts. */
const deepAnswer = () => `{"jsonrpc":"2.0","id":"x1","result":{"content":[],"deep":${'['.repeat(300)}${']'.repeat(300)}}}`;
const event = (message: unknown, id?: string) => `${id ? `id: ${id}\n` : ''}event: message\ndata: ${JSON.stringify(message)}\n\n`;

async function openTransport(): Promise<{ transport: StreamableHttpClientTransport; delivered: JSONRPCMessage[]; errors: Error[] }> {
  const transport = new StreamableHttpClientTransport(url, { dispatcher, listen: false, maxMessageBytes: 4096 });
  const delivered: JSONRPCMessage[] = [];
  const errors: Error[] = [];
  transport.onmessage = (message) => delivered.push(message);
  transport.onerror = (error) => errors.push(error);
  await transport.start();
  return { transport, delivered, errors };
}

describe('StreamableHttpClientTransport.exchange', () => {
  it('returns the answer of a JSON reply, and nothing reaches onmessage', async () => {
    reply = (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(ANSWER));
    const { transport, delivered } = await openTransport();
    await expect(transport.exchange(CALL)).resolves.toEqual(ANSWER);
    expect(delivered).toEqual([]);
    expect(received).toEqual([{ method: 'POST', message: CALL }]);
    await transport.close();
  });

  it("routes the stream's other messages: the server's request to the route, a notification it leaves to onmessage", async () => {
    const request = { jsonrpc: '2.0', id: 7, method: 'elicitation/create', params: { message: 'name?' } };
    const progress = { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'working' } };
    reply = (_req, res) =>
      res.writeHead(200, { 'content-type': 'text/event-stream' }).end(event(progress) + event(request) + event(ANSWER));
    const { transport, delivered } = await openTransport();
    const routed: JSONRPCMessage[] = [];
    const answer = await transport.exchange(CALL, { route: (message) => 'id' in message && !!routed.push(message) });
    expect(answer).toEqual(ANSWER);
    expect(routed).toEqual([request]);
    expect(delivered).toEqual([progress]);
    await transport.close();
  });

  it('resumes a stream that ended before the answer, with Last-Event-ID', async () => {
    reply = (req, res) => {
      if (req.method === 'POST') res.writeHead(200, { 'content-type': 'text/event-stream' }).end('id: e-1\nretry: 10\ndata: \n\n');
      else res.writeHead(200, { 'content-type': 'text/event-stream' }).end(event(ANSWER, 'e-2'));
    };
    const { transport } = await openTransport();
    await expect(transport.exchange(CALL)).resolves.toEqual(ANSWER);
    expect(received.map((r) => r.method)).toEqual(['POST', 'GET']);
    await transport.close();
  });

  it('rejects with http.stream_ended when the stream ends without the answer and cannot be resumed', async () => {
    reply = (_req, res) => res.writeHead(200, { 'content-type': 'text/event-stream' }).end(': nothing\n\n');
    const { transport, errors } = await openTransport();
    await expect(transport.exchange(CALL)).rejects.toMatchObject({ code: HttpClientErrorCode.StreamEnded });
    expect(errors).toEqual([]); // told to the exchange, not reported besides
    await transport.close();
  });

  it('rejects with http.request_failed when the stream breaks off', async () => {
    reply = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' }).write(': started\n\n');
      setTimeout(() => res.socket?.destroy(), 20);
    };
    const { transport } = await openTransport();
    await expect(transport.exchange(CALL)).rejects.toMatchObject({ code: HttpClientErrorCode.RequestFailed });
    await transport.close();
  });

  it("takes a 2026-07-28 server's 400 with a JSON-RPC error for the request as its answer", async () => {
    const modern = { ...CALL, params: { ...CALL.params, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } } };
    const refusal = { jsonrpc: '2.0', id: 'x1', error: { code: -32602, message: 'unknown tool' } };
    reply = (req, res) => {
      expect(req.headers['mcp-method']).toBe('tools/call');
      res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify(refusal));
    };
    const { transport } = await openTransport();
    await expect(transport.exchange(modern)).resolves.toEqual(refusal);
    await transport.close();
  });

  it.each([
    ['a JSON body that is not its answer', 200, JSON.stringify({ ...ANSWER, id: 'other' }), HttpClientErrorCode.MalformedMessage],
    ['HTTP 202 and no answer', 202, '', HttpClientErrorCode.UnexpectedContentType],
    ['a JSON body above the size limit', 200, JSON.stringify({ ...ANSWER, pad: 'x'.repeat(5000) }), HttpClientErrorCode.MessageTooLarge],
    ['HTTP 500', 500, '{"jsonrpc":"2.0","id":"x1","error":{"code":-32603,"message":"boom"}}', HttpClientErrorCode.HttpStatus],
  ])('rejects %s with a clear error', async (_what, status, body, code) => {
    reply = (_req, res) => res.writeHead(status, { 'content-type': 'application/json' }).end(body);
    const { transport } = await openTransport();
    await expect(transport.exchange(CALL)).rejects.toMatchObject({ code });
    await transport.close();
  });

  it.each([
    ['a JSON body', 'application/json', deepAnswer()],
    ['an SSE event', 'text/event-stream', `event: message\ndata: ${deepAnswer()}\n\n`],
  ])('answers a request itself with http.message_too_deep, unparsed, when %s nests too deep, and goes on', async (_, contentType, body) => {
    let deep = true;
    reply = (_req, res) => {
      res.writeHead(200, { 'content-type': deep ? contentType : 'application/json' }).end(deep ? body : JSON.stringify(ANSWER));
      deep = false;
    };
    const { transport, errors } = await openTransport();
    const answer = await transport.exchange(CALL);
    expect(answer).toEqual({
      jsonrpc: '2.0',
      id: 'x1',
      error: {
        code: -32603,
        message:
          "the server's reply is nested deeper than this client's limit of 256 levels; it was dropped unparsed [http.message_too_deep]",
        data: { reason: 'http.message_too_deep', limit: 256 },
      },
    });
    expect(errors.map((error) => (error as { code?: string }).code)).toEqual([HttpClientErrorCode.MessageTooDeep]);
    await expect(transport.exchange(CALL)).resolves.toEqual(ANSWER);
    await transport.close();
  });

  it("rejects with the cancellation's reason when aborted, and the server sees the stream closed", async () => {
    let closed = false;
    reply = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' }).write(': working\n\n');
      res.on('close', () => (closed = true));
    };
    const { transport } = await openTransport();
    const cancel = new Cancellation();
    const exchanged = transport.exchange(CALL, { cancellation: cancel });
    await eventually(() => received.length === 1);
    cancel.abort(new Error('the caller hung up'));
    await expect(exchanged).rejects.toThrow('the caller hung up');
    expect(await eventually(() => closed, 5000)).toBe(true);
    await transport.close();
  });

  it('rejects with http.connection_closed when the transport closes while it waits', async () => {
    reply = (_req, res) => res.writeHead(200, { 'content-type': 'text/event-stream' }).write(': working\n\n');
    const { transport } = await openTransport();
    const exchanged = transport.exchange(CALL, { cancellation: new Cancellation() });
    await eventually(() => received.length === 1);
    await transport.close();
    await expect(exchanged).rejects.toMatchObject({ code: HttpClientErrorCode.ConnectionClosed });
  });

  it('sends nothing for a cancellation already aborted', async () => {
    const { transport } = await openTransport();
    const cancelled = new Cancellation();
    cancelled.abort(new Error('too late'));
    await expect(transport.exchange(CALL, { cancellation: cancelled })).rejects.toThrow('too late');
    expect(received).toEqual([]);
    await transport.close();
  });

  it('refuses to start once closed', async () => {
    const { transport } = await openTransport();
    await transport.close();
    await expect(transport.exchange(CALL)).rejects.toMatchObject({ code: HttpClientErrorCode.NotConnected });
  });
});
