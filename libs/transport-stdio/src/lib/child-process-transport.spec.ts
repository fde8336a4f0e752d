import path from 'node:path';

import { Client } from '@modelcontextprotocol/client';
import type { JSONRPCMessage } from '@toolmesh/protocol';
import { EVERYTHING_BIN } from '@toolmesh/test-peers/mcp-servers';
import { eventually, isRunning } from '@toolmesh/test-peers/process-table';

import { ChildProcessTransport } from './child-process-transport';
import { ChildProcessRegistry } from './process/child-process-registry';
import { StdioErrorCode, StdioTransportError } from './stdio-errors';

const ROOT = path.join(__dirname, '../../../..');
const PEER = path.join(ROOT, 'tools/test/peers/stdio-peer.mjs');

/** Every peer a test starts; closed after each test, so a failing test leaves no process behind. */
const started: ChildProcessTransport[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((transport) => transport.close()));
});

function peer(flags: string[] = [], options: ConstructorParameters<typeof ChildProcessTransport>[1] = {}) {
  const transport = new ChildProcessTransport(
    { command: process.execPath, args: [PEER, ...flags] },
    { registry: new ChildProcessRegistry(), ...options },
  );
  started.push(transport);
  return transport;
}

async function connect(transport: ChildProcessTransport): Promise<Client> {
  const client = new Client({ name: 'transport-stdio-test', version: '0.0.0' });
  await client.connect(transport);
  return client;
}

describe('ChildProcessTransport', () => {
  describe('against @modelcontextprotocol/server-everything', () => {
    let transport: ChildProcessTransport;
    let client: Client;
    const notifications: JSONRPCMessage[] = [];

    beforeAll(async () => {
      transport = new ChildProcessTransport({ command: EVERYTHING_BIN, args: ['stdio'], env: { EVERYTHING_TEST_MARKER: 'configured' } });
      client = await connect(transport);
      // The SDK client owns onmessage after connect; wrap it to observe notifications as they arrive.
      const deliver = transport.onmessage!;
      transport.onmessage = (message, extra) => {
        if (!('id' in message)) notifications.push(message);
        deliver(message, extra);
      };
    });
    afterAll(() => client.close());

    it('lists and calls tools', async () => {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['echo', 'get-sum', 'get-env']));
      const result = await client.callTool({ name: 'echo', arguments: { message: 'hi' } });
      expect(result.content).toEqual([{ type: 'text', text: 'Echo: hi' }]);
    });

    it('gives the server only the minimal environment plus its configured variables', async () => {
      process.env.TOOLMESH_TEST_SECRET = 'do-not-leak';
      try {
        const result = await client.callTool({ name: 'get-env', arguments: {} });
        const env = JSON.parse((result.content as Array<{ text: string }>)[0].text) as Record<string, string>;
        expect(env.EVERYTHING_TEST_MARKER).toBe('configured');
        expect(env.PATH).toBe(process.env.PATH);
        expect(env.TOOLMESH_TEST_SECRET).toBeUndefined();
      } finally {
        delete process.env.TOOLMESH_TEST_SECRET;
      }
    });

    it('hands server notifications to its listener', async () => {
      await client.callTool({ name: 'toggle-simulated-logging', arguments: {} });
      expect(await eventually(() => notifications.some((n) => 'method' in n && n.method === 'notifications/message'))).toBe(true);
      await client.callTool({ name: 'toggle-simulated-logging', arguments: {} });
    });
  });

  it('survives malformed and oversized lines from a server and still gets its answer', async () => {
    const transport = peer(['--noise', '--noise-bytes=100000'], { maxMessageBytes: 65_536 });
    const errors: Error[] = [];
    const client = await connect(transport);
    client.onerror = (e) => errors.push(e);

    const { tools } = await client.listTools();

    expect(tools.map((t) => t.name)).toContain('echo');
    expect(errors.map((e) => (e as StdioTransportError).code)).toEqual([
      StdioErrorCode.MalformedMessage,
      StdioErrorCode.MalformedMessage,
      StdioErrorCode.MessageTooLarge,
    ]);
    await client.close();
  });

  it('reports a command that cannot be started, with the command in the message', async () => {
    const transport = new ChildProcessTransport({ command: '/nonexistent/mcp-server' }, { registry: new ChildProcessRegistry() });
    await expect(transport.start()).rejects.toMatchObject({
      code: StdioErrorCode.SpawnFailed,
      message: expect.stringContaining('/nonexistent/mcp-server'),
    });
  });

  it('names the working directory when it is the part that is missing', async () => {
    const transport = new ChildProcessTransport(
      { command: process.execPath, cwd: '/nonexistent/dir' },
      { registry: new ChildProcessRegistry() },
    );
    await expect(transport.start()).rejects.toMatchObject({
      code: StdioErrorCode.SpawnFailed,
      message: expect.stringContaining('in /nonexistent/dir'),
    });
  });

  it('reports a server that exits on its own, with the tail of its stderr, and closes', async () => {
    const transport = peer(['--crash-on-call', '--stderr-bytes=40000'], { stderrBufferBytes: 1024 });
    const errors: Error[] = [];
    const client = await connect(transport);
    client.onerror = (e) => errors.push(e);
    let closed = false;
    client.onclose = () => (closed = true);

    await expect(client.callTool({ name: 'echo', arguments: { text: 'x' } })).rejects.toThrow();

    expect(await eventually(() => closed)).toBe(true);
    const exit = errors.find((e) => (e as StdioTransportError).code === StdioErrorCode.ProcessExited)!;
    expect(exit.message).toContain('exited with code 3');
    expect(exit.message).toContain('earlier bytes dropped'); // only the bounded tail is kept
    expect(transport.stderrTail.length).toBeLessThan(1100);
  });

  it('ends a server that ignores stdin EOF and SIGTERM with SIGKILL after the grace period, grandchildren included', async () => {
    const registry = new ChildProcessRegistry();
    const transport = peer(['--stubborn', '--grandchild'], { registry, exitGraceMs: 100, killGraceMs: 200 });
    const client = await connect(transport);
    const pid = transport.pid!;
    expect(await eventually(() => /grandchild \d+/.test(transport.stderrTail))).toBe(true);
    const grandchild = Number(/grandchild (\d+)/.exec(transport.stderrTail)![1]);
    expect(isRunning(pid) && isRunning(grandchild)).toBe(true);

    await client.close();

    expect(isRunning(pid)).toBe(false);
    expect(await eventually(() => !isRunning(grandchild))).toBe(true);
    expect(transport.stderrTail).toContain('ignoring SIGTERM'); // it was asked politely first
    expect(registry.size).toBe(0);
  });

  it('lets exit handlers kill every tracked process group synchronously', async () => {
    const registry = new ChildProcessRegistry();
    const transport = peer(['--stubborn'], { registry });
    await transport.start();
    const pid = transport.pid!;
    expect(registry.size).toBe(1);

    registry.signalAll('SIGKILL');

    expect(await eventually(() => !isRunning(pid))).toBe(true);
    await transport.close();
  });
});
