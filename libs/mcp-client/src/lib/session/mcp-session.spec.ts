import { type LegacyMcpServer, startLegacyMcpServer } from '@toolmesh/test-peers/legacy-mcp-server';
import { until } from '@toolmesh/test-peers/process-table';
import { StreamableHttpClientTransport } from '@toolmesh/transport-http/client';
import { Agent } from 'undici';

import type { Backoff } from '../backoff';
import type { EraSetting } from '../client-era';
import { McpClientErrorCode } from '../client-errors';
import { McpClient } from '../mcp-client';
import { McpSession, type McpSessionEvents } from './mcp-session';

/**
 * The session layer both apps use, over the Streamable HTTP transport against a hand-written 2025 server on
 * loopback (JSON answers, a session id, `server/discover` answered as a 2025 server does): a session the
 * server forgot renewed for the request that found out, without probing the era again; a kept-live session
 * reconnected after the backoff's delays, or given up when the backoff says so.
 */
const FAST: Backoff = { delaysMs: [10, 20], afterLast: 'repeat' };

describe('McpSession', () => {
  let server: LegacyMcpServer;
  let url: URL;
  let dispatcher: Agent;
  /** How many more initialize requests are refused with 503; Infinity: all of them. */
  let refusals: number;
  const methods = () => server.received.map(({ method }) => method);

  beforeAll(async () => {
    dispatcher = new Agent();
    server = await startLegacyMcpServer('forgetful', {
      initialize: () => (refusals > 0 ? (refusals--, 503) : undefined),
      answer: (method) => (method === 'tools/call' ? { result: { content: [{ type: 'text', text: 'called' }] } } : undefined),
    });
    url = server.url;
  });

  afterAll(async () => {
    await server.close();
    await dispatcher.close();
  });

  beforeEach(() => {
    server.reset();
    refusals = 0;
  });

  /** A session over real clients, each recorded, and every event it tells, by name. */
  function sessionTo(options: { era?: EraSetting; backoff?: Backoff } = {}) {
    const clients: McpClient[] = [];
    const told: string[] = [];
    const events: McpSessionEvents = {
      onConnected: () => told.push('connected'),
      onLost: () => told.push('lost'),
      onReconnected: () => told.push('reconnected'),
      onConnectFailed: () => told.push('connect failed'),
      onGivenUp: (attempts) => told.push(`given up after ${attempts}`),
      onRenewed: () => told.push('renewed'),
    };
    const mcp = new McpSession({
      newClient: ({ prior, lost }) => {
        const transport = new StreamableHttpClientTransport(url, { dispatcher, listen: false });
        const client = new McpClient(transport, {
          serverName: 'forgetful',
          clientInfo: { name: 'session-test', version: '1' },
          requestTimeoutMs: 5_000,
          era: options.era ?? 'legacy',
          prior,
          onClosed: lost,
        });
        clients.push(client);
        return client;
      },
      backoff: options.backoff ?? FAST,
      events,
    });
    return { mcp, clients, told };
  }

  const call = (client: McpClient) => client.callTool('a', {});

  it('renews a session the server forgot: the request that got 404 runs once more on a new session, the era not probed again', async () => {
    const { mcp, clients, told } = sessionTo({ era: 'auto' });
    try {
      expect(await mcp.run(call)).toMatchObject({ content: [{ text: 'called' }] });
      server.forgetSessions();
      expect(await mcp.run(call)).toMatchObject({ content: [{ text: 'called' }] });
      expect(methods()).toEqual([
        'server/discover',
        'initialize',
        'notifications/initialized',
        'tools/call',
        'tools/call', // refused with 404: it never ran
        'initialize', // the verdict of the first connection: no server/discover
        'notifications/initialized',
        'tools/call',
      ]);
      expect(told).toEqual(['connected', 'renewed', 'lost', 'connected']);
      // One live connection at a time: the first client was closed when its session was lost.
      expect(clients.map((client) => client.isConnected)).toEqual([false, true]);
      expect(mcp.current).toBe(clients[1]);
    } finally {
      await mcp.close();
    }
  });

  it('fails a request whose session cannot be renewed with client.not_connected: it never ran', async () => {
    const { mcp } = sessionTo();
    try {
      await mcp.run(call);
      server.forgetSessions();
      refusals = Infinity;
      await expect(mcp.run(call)).rejects.toMatchObject({ code: McpClientErrorCode.NotConnected });
      expect(methods().filter((method) => method === 'tools/call')).toHaveLength(2);
    } finally {
      await mcp.close();
    }
  });

  it('keeps a live session: connects again after the backoff while the server refuses, and says it reconnected', async () => {
    refusals = 3;
    const { mcp, told } = sessionTo();
    try {
      mcp.keepLive();
      await until(() => mcp.state === 'connected', 'the session connected');
      expect(told).toEqual(['connect failed', 'connect failed', 'connect failed', 'connected', 'reconnected']);
      expect(await mcp.run(call)).toMatchObject({ content: [{ text: 'called' }] });
    } finally {
      await mcp.close();
    }
  });

  it('gives up when a backoff that gives up is used up: failed, and told once', async () => {
    refusals = Infinity;
    const { mcp, told } = sessionTo({ backoff: { delaysMs: [10, 10], afterLast: 'give-up' } });
    try {
      mcp.keepLive();
      await until(() => mcp.state === 'failed', 'the session given up');
      expect(told).toEqual(['connect failed', 'connect failed', 'connect failed', 'given up after 2']);
      expect(methods()).toEqual(['initialize', 'initialize', 'initialize']);
    } finally {
      await mcp.close();
    }
  });
});
