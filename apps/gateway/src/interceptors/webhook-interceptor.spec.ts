import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import { testCall } from '../test-support/intercepted-calls';
import { UndiciToolClient } from '../tool-client/undici-tool-client';
import { webhookJudge } from './webhook-interceptor';

/** A guardrail on loopback whose answer each test chooses; it records what it was sent. */
describe('webhookJudge against a real guardrail', () => {
  let server: Server;
  let url: string;
  let answer: (req: IncomingMessage, res: ServerResponse) => void;
  const asked: Array<{ headers: IncomingMessage['headers']; body: Record<string, unknown> }> = [];
  const client = new UndiciToolClient({ connectionsPerOrigin: 4, maxReplyBytes: 1024, maxReplyDepth: 64 });
  const secrets = { read: ({ env }: { env?: string }) => (env === 'GUARD_TOKEN' ? 'Bearer guard-secret' : undefined) };
  const judge = (timeoutMs = 2000) =>
    webhookJudge('guard', { url, timeoutMs, headers: { Authorization: { env: 'GUARD_TOKEN' } } }, client, secrets as never);

  beforeAll(async () => {
    server = createServer((req, res) => {
      let text = '';
      req.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      req.on('end', () => {
        asked.push({ headers: req.headers, body: JSON.parse(text) as Record<string, unknown> });
        answer(req, res);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/check`;
  });
  afterAll(async () => {
    await client.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  beforeEach(() => (asked.length = 0));

  it("sends SEP-2624's invoke shape with the gateway's own credential, and reads a denial", async () => {
    answer = (_, res) =>
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end('{"type":"validation","valid":false,"messages":[{"message":"not here"}]}');
    const verdict = await judge().request(testCall({ q: 'x' }));
    expect(verdict).toEqual({ kind: 'deny', reason: 'not here' });
    expect(asked).toHaveLength(1);
    expect(asked[0].headers.authorization).toBe('Bearer guard-secret');
    expect(asked[0].body).toMatchObject({
      interceptor: 'guard',
      event: 'tools/call',
      phase: 'request',
      payload: { name: 'echo', arguments: { q: 'x' } },
    });
  });

  it('gives up after timeoutMs when the guardrail does not answer', async () => {
    answer = () => undefined; // never answers
    await expect(judge(50).request(testCall({ q: 'x' }))).rejects.toThrow('no answer within 50 ms (timeoutMs)');
  });

  it('does not read an answer longer than webhook.maxReplyBytes, nor one that is not JSON or not a 200', async () => {
    answer = (_, res) => res.writeHead(200).end(`{"type":"validation","valid":true,"pad":"${'x'.repeat(2048)}"}`);
    await expect(judge().request(testCall({}))).rejects.toThrow(/its answer was not read: .*1024 bytes \(webhook\.maxReplyBytes\)/);
    answer = (_, res) => res.writeHead(200).end('allow');
    await expect(judge().request(testCall({}))).rejects.toThrow('the guardrail answered something other than JSON');
    answer = (_, res) => res.writeHead(503).end();
    await expect(judge().request(testCall({}))).rejects.toThrow('the guardrail answered HTTP 503');
  });
});
