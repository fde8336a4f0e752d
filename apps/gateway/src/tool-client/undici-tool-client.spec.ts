import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import { UndiciToolClient } from './undici-tool-client';

/**
 * The tool client against a real HTTP server on loopback, for what the gateway's end-to-end tests do not
 * reach with the sample tool service: a body that keeps trickling past the timeout, and a reply over
 * the limit.
 */
describe('UndiciToolClient', () => {
  const trickling = new Set<ServerResponse>();
  let server: Server;
  let origin: string;
  const client = new UndiciToolClient({ connectionsPerOrigin: 4, maxReplyBytes: 1024, maxReplyDepth: 256 });

  beforeAll(async () => {
    server = createServer((req, res) => {
      let received = '';
      req.setEncoding('utf8').on('data', (chunk: string) => (received += chunk));
      req.on('end', () => {
        if (req.url === '/echo') {
          res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data: { received, guid: req.headers.guid } }));
        } else if (req.url === '/large') {
          res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data: 'x'.repeat(4096) }));
        } else if (req.url === '/deep') {
          // 300 levels, written a level at a time, so the refusal must hold across chunks.
          res.writeHead(200, { 'content-type': 'application/json' });
          for (let level = 0; level < 300; level++) res.write('[');
          res.end(']'.repeat(300));
        } else if (req.url === '/brackets-in-strings') {
          res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data: ['[{\\"'.repeat(100), [[['shallow']]]] }));
        } else if (req.url === '/silent') {
          received = 'never answered'; // no status line, no headers: only the bound on the whole call ends it
          trickling.add(res);
        } else if (req.url === '/trickles') {
          // A byte every 50 ms, never ending: no idle timeout fires, only the bound on the whole call.
          res.writeHead(200, { 'content-type': 'application/json' });
          const trickle = setInterval(() => res.write(' '), 50);
          res.once('close', () => clearInterval(trickle));
          trickling.add(res);
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await client.close();
    for (const res of trickling) res.destroy();
    await new Promise((resolve) => server.close(resolve));
  });

  const post = (path: string, timeoutMillis = 5_000) =>
    client.post({
      endpoint: new URL(path, origin),
      body: '{"q":1}',
      headers: { 'content-type': 'application/json', guid: 'g-1' },
      timeoutMillis,
    });

  it('returns the status and body of a reply, having sent the body and headers', async () => {
    await expect(post('/echo')).resolves.toEqual({
      kind: 'reply',
      status: 200,
      body: JSON.stringify({ data: { received: '{"q":1}', guid: 'g-1' } }),
    });
  });

  it('ends a reply whose body is still arriving when the time is up as a timeout', async () => {
    await expect(post('/trickles', 300)).resolves.toEqual({
      kind: 'failure',
      reason: 'timeout',
      detail: 'no complete reply within 300 ms',
    });
  });

  it('ends a call whose reply never starts as a timeout', async () => {
    await expect(post('/silent', 300)).resolves.toEqual({ kind: 'failure', reason: 'timeout', detail: 'no complete reply within 300 ms' });
  });

  it('ends a call still waiting for a free connection when the time is up, and never sends it', async () => {
    const oneConnection = new UndiciToolClient({ connectionsPerOrigin: 1, maxReplyBytes: 1024, maxReplyDepth: 256 });
    // Only this test's requests count: on a busy machine, an earlier test's request can still reach the
    // server after that test has ended.
    const headers = { 'x-test': 'free-connection' };
    const reached: string[] = [];
    const record = (req: IncomingMessage) => req.headers['x-test'] === headers['x-test'] && reached.push(req.url ?? '');
    server.on('request', record);
    try {
      const occupying = oneConnection.post({ endpoint: new URL('/silent', origin), body: '{}', headers, timeoutMillis: 1_000 });
      const queued = oneConnection.post({ endpoint: new URL('/echo', origin), body: '{}', headers, timeoutMillis: 200 });
      await expect(queued).resolves.toEqual({ kind: 'failure', reason: 'timeout', detail: 'no complete reply within 200 ms' });
      await expect(occupying).resolves.toMatchObject({ kind: 'failure', reason: 'timeout' });
      await new Promise((resolve) => setTimeout(resolve, 100)); // the connection is free again: the queued call would go now
      expect(reached).toEqual(['/silent']);
    } finally {
      server.off('request', record);
      await oneConnection.close();
    }
  });

  it('refuses a reply larger than the limit instead of buffering it', async () => {
    await expect(post('/large')).resolves.toEqual({ kind: 'failure', reason: 'reply_too_large', detail: 'the reply exceeds 1024 bytes' });
  });

  it('refuses a reply nested deeper than the limit as it arrives, naming the limit', async () => {
    await expect(post('/deep')).resolves.toEqual({
      kind: 'failure',
      reason: 'reply_too_deep',
      detail: 'the reply is nested deeper than 256 levels',
    });
  });

  it('does not count brackets and escaped quotes inside strings as nesting', async () => {
    const reply = await post('/brackets-in-strings');
    expect(reply).toMatchObject({ kind: 'reply', status: 200 });
    expect(JSON.parse((reply as { body: string }).body).data[0]).toBe('[{\\"'.repeat(100));
  });

  it('still serves calls after those failures', async () => {
    await expect(post('/echo')).resolves.toMatchObject({ kind: 'reply', status: 200 });
  });

  it('reports a refused connection as such', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const reply = await client.post({ endpoint: new URL(`http://127.0.0.1:${port}/echo`), body: '{}', headers: {}, timeoutMillis: 2_000 });
    expect(reply).toMatchObject({ kind: 'failure', reason: 'connection_refused' });
  });
});
