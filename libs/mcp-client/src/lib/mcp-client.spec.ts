import { InMemoryTransport } from '@modelcontextprotocol/client';
import { McpServer } from '@modelcontextprotocol/server';
import type { JSONRPCMessage, McpTransport, ServerNotification } from '@toolmesh/protocol';
import * as z from 'zod';

import { McpClientErrorCode } from './client-errors';
import { McpClient } from './mcp-client';

const clientInfo = { name: 'mcp-client-test', version: '0.0.0' };

/** A real SDK server on the other end of an in-memory pair: the client's logic, no I/O. */
async function serverPair(configure: (server: McpServer) => void = () => undefined) {
  const server = new McpServer({ name: 'sdk-server', version: '9.9.9' }, { capabilities: { logging: {} } });
  server.registerTool('add', { description: 'adds', inputSchema: z.object({ a: z.number(), b: z.number() }) }, async (args) => ({
    content: [{ type: 'text', text: String(args.a + args.b) }],
  }));
  configure(server);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  return { server, clientSide: clientSide as McpTransport };
}

describe('McpClient', () => {
  it('initializes, lists and calls tools', async () => {
    const { clientSide } = await serverPair();
    const client = new McpClient(clientSide, { serverName: 'calc', clientInfo, requestTimeoutMs: 5000 });
    await client.connect();

    expect(client.isConnected).toBe(true);
    expect(client.serverInfo).toMatchObject({ name: 'sdk-server', version: '9.9.9' });
    expect((await client.listTools()).map((t) => t.name)).toEqual(['add']);
    expect((await client.callTool('add', { a: 2, b: 3 })).content).toEqual([{ type: 'text', text: '5' }]);
    await client.close();
    expect(client.isConnected).toBe(false);
  });

  it('delivers every server notification to listeners, stamped with the configured server name', async () => {
    const { server, clientSide } = await serverPair();
    const client = new McpClient(clientSide, { serverName: 'calc', clientInfo, requestTimeoutMs: 5000 });
    const seen: ServerNotification[] = [];
    client.addNotificationListener((event) => seen.push(event));
    await client.connect();

    await server.sendLoggingMessage({ level: 'info', data: 'hello' });
    await server.sendToolListChanged();
    await new Promise((resolve) => setImmediate(resolve));

    expect(seen.map((e) => [e.server, e.notification.method])).toEqual([
      ['calc', 'notifications/message'],
      ['calc', 'notifications/tools/list_changed'],
    ]);
    expect(seen[0].receivedAt).toBeInstanceOf(Date);
    await client.close();
  });

  it('refuses requests before connect and after close with client.not_connected', async () => {
    const { clientSide } = await serverPair();
    const client = new McpClient(clientSide, { serverName: 'calc', clientInfo, requestTimeoutMs: 5000 });
    await expect(client.listTools()).rejects.toMatchObject({
      code: McpClientErrorCode.NotConnected,
      message: expect.stringContaining('"calc"'),
    });
    await client.connect();
    await client.close();
    await expect(client.callTool('add', {})).rejects.toMatchObject({ code: McpClientErrorCode.NotConnected });
  });

  it('times out a server that never answers initialize, and closes the transport', async () => {
    let closed = false;
    const silent: McpTransport = {
      start: async () => undefined,
      send: async (_message: JSONRPCMessage) => undefined,
      close: async () => {
        closed = true;
      },
    };
    const client = new McpClient(silent, { serverName: 'mute', clientInfo, requestTimeoutMs: 100 });
    await expect(client.connect()).rejects.toMatchObject({
      code: McpClientErrorCode.ConnectTimeout,
      message: expect.stringContaining('"mute"'),
    });
    expect(closed).toBe(true);
    expect(client.isConnected).toBe(false);
  });

  it('reports a transport that cannot start as client.connect_failed with the cause', async () => {
    const broken: McpTransport = {
      start: async () => {
        throw new Error('spawn ENOENT');
      },
      send: async () => undefined,
      close: async () => undefined,
    };
    const client = new McpClient(broken, { serverName: 'gone', clientInfo, requestTimeoutMs: 1000 });
    await expect(client.connect()).rejects.toMatchObject({
      code: McpClientErrorCode.ConnectFailed,
      message: expect.stringContaining('spawn ENOENT'),
    });
  });
});
