import { freePort } from '@toolmesh/test-peers/free-port';
import { type LegacyMcpServer, startLegacyMcpServer } from '@toolmesh/test-peers/legacy-mcp-server';
import type { Logger } from '@toolmesh/transport-http/server';
import { Agent } from 'undici';

import { CircuitBreaker } from '../call/circuit-breaker';
import { UpstreamConnection } from './upstream-connection';

/**
 * One MCP server's connection against a hand-written 2025 server on loopback (JSON answers, a session id):
 * every page of tools/list, the deadline on a server that never answers, and the circuit that opens on a
 * server that is gone but not on one that answers with its own JSON-RPC errors. The session's renewal is
 * the MCP client library's (libs/mcp-client/src/lib/session/mcp-session.spec.ts).
 */
const PAGES: Record<string, { tools: unknown[]; nextCursor?: string }> = {
  '': { tools: [{ name: 'a', inputSchema: { type: 'object' } }], nextCursor: 'page-2' },
  'page-2': { tools: [{ name: 'b', inputSchema: { type: 'object' } }], nextCursor: 'page-3' },
  'page-3': { tools: [{ name: 'c', inputSchema: { type: 'object' } }] },
};

/** What the connection logged at warn, by event. */
const warned: string[] = [];
const logger: Logger = {
  debug: () => undefined,
  info: () => undefined,
  warn: (event) => void warned.push(event),
  error: () => undefined,
  flush: () => undefined,
};

describe('UpstreamConnection', () => {
  let server: LegacyMcpServer;
  let url: URL;
  let dispatcher: Agent;
  /** Set: every request is left unanswered. */
  let stalled: boolean;
  /** Requests of this method are left unanswered. */
  let stalledMethod: string | undefined;

  beforeAll(async () => {
    dispatcher = new Agent();
    server = await startLegacyMcpServer('paged', {
      silent: () => stalled,
      initialize: () => (stalledMethod === 'initialize' ? 'unanswered' : undefined),
      answer: (method, params) => {
        if (method === stalledMethod) return 'unanswered';
        if (method === 'tools/list') return { result: PAGES[String(params?.cursor ?? '')] };
        if (method === 'logging/setLevel' && params?.level !== 'emergency') return { result: {} };
        if (method === 'tools/call' && params?.name === 'refused') return { error: { code: -32602, message: 'Unknown tool: refused' } };
        if (method === 'tools/call') return { result: { content: [{ type: 'text', text: 'called' }] } };
        return undefined;
      },
    });
    url = server.url;
  });

  afterAll(async () => {
    await server.close();
    await dispatcher.close();
  });

  beforeEach(() => {
    server.reset();
    warned.length = 0;
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
        maxRelayedRequestsPerCall: 16,
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
      expect(await connection.listTools()).toEqual({
        tools: ['a', 'b', 'c'].map((name) => expect.objectContaining({ name })),
        requiredCapabilities: {},
      });
      // Then once more as a client declaring no capability (capability-attribution.ts): the same tools, so no more.
      expect(server.received.filter((request) => request.method === 'tools/list').map((request) => request.params?.cursor)).toEqual([
        undefined,
        'page-2',
        'page-3',
        undefined,
        'page-2',
        'page-3',
      ]);
      expect(server.received.every((request) => request.headers['x-upstream-key'] === 'k1')).toBe(true);
    } finally {
      await connection.close();
    }
  });

  it('fails a server that never answers with gateway.upstream_timeout within the deadline', async () => {
    stalled = true;
    const connection = connectionTo(url, 300);
    try {
      await expect(connection.listTools()).rejects.toMatchObject({
        // the deadline, or the SDK's connect timeout, whichever ran out first
        message: expect.stringMatching(/did not answer tools\/list|\[client\.connect_timeout\]/),
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
      await expect(connection.relayRequest('tools/call', 'a', {}, { timeoutMillis: 300, meta: {} })).rejects.toMatchObject({
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
      await expect(connection.relayRequest('tools/call', 'a', {}, { timeoutMillis: 300, meta: {} })).rejects.toMatchObject({
        code: 'gateway.upstream_timeout',
      });
      expect(performance.now() - started).toBeLessThan(4_000);
      expect(server.received.map(({ method }) => method)).toEqual(['initialize']);
    } finally {
      server.dropConnections(); // the handshake still waiting fails, so close() need not wait for it
      await connection.close();
    }
  });

  it('stops calling a server that is gone after three failures: the fourth fails at once, naming the open circuit', async () => {
    const gone = new URL(`http://127.0.0.1:${await freePort()}/mcp`);
    const connection = connectionTo(gone);
    try {
      for (let i = 0; i < 3; i += 1) {
        await expect(connection.relayRequest('tools/call', 'a', {}, { timeoutMillis: 5_000, meta: {} })).rejects.toMatchObject({
          code: 'gateway.upstream_failed',
          message: 'the MCP server of bundle paged could not be used for tools/call of a [client.connect_failed]',
        });
      }
      await expect(connection.relayRequest('tools/call', 'a', {}, { timeoutMillis: 5_000, meta: {} })).rejects.toMatchObject({
        code: 'gateway.upstream_unavailable',
        message: expect.stringContaining('the MCP server of bundle paged is not being called'),
      });
    } finally {
      await connection.close();
    }
  });

  it("fails a listing of a server that is gone with the transport's own error, for the bundle's status (the operator's)", async () => {
    const gone = new URL(`http://127.0.0.1:${await freePort()}/mcp`);
    const connection = connectionTo(gone);
    try {
      const failure = await connection.listTools().catch((error: unknown) => error);
      expect(failure).toMatchObject({ code: 'client.connect_failed', message: expect.stringContaining(gone.host) });
    } finally {
      await connection.close();
    }
  });

  it('keeps calling a server that answers its own JSON-RPC errors: they say it is alive, so they never open the circuit', async () => {
    const connection = connectionTo(url);
    try {
      for (let i = 0; i < 4; i += 1) {
        await expect(connection.relayRequest('tools/call', 'refused', {}, { timeoutMillis: 5_000, meta: {} })).rejects.toMatchObject({
          code: -32602,
        });
      }
      expect(server.received.filter(({ method }) => method === 'tools/call')).toHaveLength(4);
    } finally {
      await connection.close();
    }
  });

  it("asks a 2025 server for a call's log level before the call, once for each level lower than any it was asked for", async () => {
    const connection = connectionTo(url);
    const asked = () =>
      server.received
        .filter(({ method }) => method === 'logging/setLevel' || method === 'tools/call')
        .map(({ method, params }) => (method === 'tools/call' ? method : `${method} ${String(params?.level)}`));
    try {
      for (const logLevel of ['info', 'warning', undefined, 'info', 'debug', 'error'])
        await connection.relayRequest('tools/call', 'a', {}, { timeoutMillis: 5_000, meta: {}, logLevel });
      expect(asked()).toEqual([
        'logging/setLevel info',
        'tools/call',
        'tools/call',
        'tools/call',
        'tools/call',
        'logging/setLevel debug',
        'tools/call',
        'tools/call',
      ]);
    } finally {
      await connection.close();
    }
  });

  it('calls all the same when the server refuses the level, and logs the refusal by its code', async () => {
    const connection = connectionTo(url);
    try {
      await expect(
        connection.relayRequest('tools/call', 'a', {}, { timeoutMillis: 5_000, meta: {}, logLevel: 'emergency' }),
      ).resolves.toMatchObject({ content: [{ type: 'text', text: 'called' }] });
      expect(server.received.map(({ method }) => method)).toContain('logging/setLevel');
      expect(warned).toEqual(['mcp_upstream_set_level_failed']);
    } finally {
      await connection.close();
    }
  });
});
