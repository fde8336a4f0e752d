import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import { freePort } from '@toolmesh/test-peers/free-port';
import type { Logger } from '@toolmesh/transport-http/server';
import { Agent } from 'undici';

import { CircuitBreaker } from './circuit-breaker';
import { UpstreamConnection } from './upstream-connection';

/**
 * One MCP server's connection against a hand-written 2025 server on loopback (JSON answers, a session id):
 * every page of tools/list, the deadline on a server that never answers, and the circuit that opens on a
 * server that is gone but not on one that answers with its own JSON-RPC errors. The session's renewal is
 * the MCP client library's (libs/mcp-client/src/lib/session/mcp-session.spec.ts).
 */
interface Received {
  readonly headers: IncomingHttpHeaders;
  readonly method: string;
  readonly params?: Record<string, unknown>;
}

const PAGES: Record<string, { tools: unknown[]; nextCursor?: string }> = {
  '': { tools: [{ name: 'a', inputSchema: { type: 'object' } }], nextCursor: 'page-2' },
  'page-2': { tools: [{ name: 'b', inputSchema: { type: 'object' } }], nextCursor: 'page-3' },
  'page-3': { tools: [{ name: 'c', inputSchema: { type: 'object' } }] },
};

const logger: Logger = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  flush: () => undefined,
};

describe('UpstreamConnection', () => {
  let server: Server;
  let url: URL;
  let dispatcher: Agent;
  let received: Received[];
  let session: string;
  /** Set: every request is left unanswered. */
  let stalled: boolean;
  /** Requests of this method are left unanswered. */
  let stalledMethod: string | undefined;

  const json = (res: ServerResponse, body: unknown, headers: Record<string, string> = {}) =>
    res.writeHead(200, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));

  beforeAll(async () => {
    dispatcher = new Agent();
    server = createServer(async (req, res) => {
      let text = '';
      for await (const chunk of req) text += chunk;
      if (stalled) return;
      if (req.method !== 'POST') return void res.writeHead(405).end();
      const { id, method, params } = JSON.parse(text) as { id?: number; method: string; params?: Record<string, unknown> };
      received.push({ headers: req.headers, method, ...(params && { params }) });
      if (method === stalledMethod) return;
      if (method === 'initialize') {
        session = `session-${received.length}`;
        const result = { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'paged', version: '1' } };
        return json(res, { jsonrpc: '2.0', id, result }, { 'mcp-session-id': session });
      }
      if (req.headers['mcp-session-id'] !== session) return void res.writeHead(404).end();
      if (id === undefined) return void res.writeHead(202).end();
      if (method === 'tools/list') return json(res, { jsonrpc: '2.0', id, result: PAGES[String(params?.cursor ?? '')] });
      if (method === 'tools/call' && params?.name === 'refused')
        return json(res, { jsonrpc: '2.0', id, error: { code: -32602, message: 'Unknown tool: refused' } });
      if (method === 'tools/call') return json(res, { jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: 'called' }] } });
      return void json(res, { jsonrpc: '2.0', id, error: { code: -32601, message: 'Method not found' } });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`);
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await dispatcher.close();
  });

  beforeEach(() => {
    received = [];
    session = '';
    stalled = false;
    stalledMethod = undefined;
  });

  const connectionTo = (target: URL, listTimeoutMillis = 5_000) =>
    new UpstreamConnection(
      {
        bundle: 'paged',
        url: target,
        location: target.href,
        era: 'legacy',
        headers: () => ({ 'x-upstream-key': 'k1' }),
        listTimeoutMillis,
      },
      {
        dispatcher,
        clientInfo: { name: 'gateway-test', version: '1' },
        breaker: new CircuitBreaker({ failureThreshold: 3, coolDownMillis: 60_000 }),
        logger,
      },
    );

  it("reads every page of the server's tools/list, with the bundle's headers", async () => {
    const connection = connectionTo(url);
    try {
      expect((await connection.listTools()).map((tool) => tool.name)).toEqual(['a', 'b', 'c']);
      expect(received.filter((request) => request.method === 'tools/list').map((request) => request.params?.cursor)).toEqual([
        undefined,
        'page-2',
        'page-3',
      ]);
      expect(received.every((request) => request.headers['x-upstream-key'] === 'k1')).toBe(true);
    } finally {
      await connection.close();
    }
  });

  it('fails a server that never answers with gateway.upstream_timeout within the deadline', async () => {
    stalled = true;
    const connection = connectionTo(url, 300);
    try {
      await expect(connection.listTools()).rejects.toMatchObject({
        code: expect.stringMatching(/^(gateway\.upstream_timeout|client\.connect_timeout)$/),
      });
    } finally {
      await connection.close();
    }
  });

  it("ends a call the server never answers at the call's deadline, on an open connection", async () => {
    const connection = connectionTo(url);
    try {
      await connection.listTools();
      stalledMethod = 'tools/call';
      const started = performance.now();
      await expect(connection.callTool('a', {}, { timeoutMillis: 300, meta: {} })).rejects.toMatchObject({
        code: 'gateway.upstream_timeout',
        message: expect.stringContaining('did not answer tools/call of a within 300 ms'),
      });
      expect(performance.now() - started).toBeLessThan(4_000);
    } finally {
      await connection.close();
    }
  });

  it('ends a call at its deadline while the connection it waits for is still being opened', async () => {
    stalledMethod = 'initialize';
    const connection = connectionTo(url);
    try {
      const started = performance.now();
      await expect(connection.callTool('a', {}, { timeoutMillis: 300, meta: {} })).rejects.toMatchObject({
        code: 'gateway.upstream_timeout',
      });
      expect(performance.now() - started).toBeLessThan(4_000);
      expect(received.map(({ method }) => method)).toEqual(['initialize']);
    } finally {
      server.closeAllConnections(); // the handshake still waiting fails, so close() need not wait for it
      await connection.close();
    }
  });

  it('stops calling a server that is gone after three failures: the fourth fails at once, naming the open circuit', async () => {
    const gone = new URL(`http://127.0.0.1:${await freePort()}/mcp`);
    const connection = connectionTo(gone);
    try {
      for (let i = 0; i < 3; i += 1) {
        await expect(connection.callTool('a', {}, { timeoutMillis: 5_000, meta: {} })).rejects.toMatchObject({
          code: 'client.connect_failed',
        });
      }
      await expect(connection.callTool('a', {}, { timeoutMillis: 5_000, meta: {} })).rejects.toMatchObject({
        code: 'gateway.upstream_unavailable',
        message: expect.stringContaining('is not being called'),
      });
    } finally {
      await connection.close();
    }
  });

  it('keeps calling a server that answers its own JSON-RPC errors: they say it is alive, so they never open the circuit', async () => {
    const connection = connectionTo(url);
    try {
      for (let i = 0; i < 4; i += 1) {
        await expect(connection.callTool('refused', {}, { timeoutMillis: 5_000, meta: {} })).rejects.toMatchObject({ code: -32602 });
      }
      expect(received.filter(({ method }) => method === 'tools/call')).toHaveLength(4);
    } finally {
      await connection.close();
    }
  });
});
