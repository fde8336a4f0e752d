import { ProtocolError } from '@modelcontextprotocol/client';
import type { JSONRPCMessage, JSONRPCRequest, McpTransport } from '@toolmesh/protocol';

import { McpClientErrorCode } from '../client-errors';
import { McpClient } from '../mcp-client';

const clientInfo = { name: 'task-client-test', version: '0.0.0' };
const TASK_2025 = {
  taskId: 't-1',
  status: 'working',
  createdAt: '2026-12-07T10:00:00Z',
  lastUpdatedAt: '2026-12-07T10:00:00Z',
  ttl: 60_000,
  pollInterval: 250,
};
const TASK_2026 = {
  taskId: 't-2',
  status: 'working',
  createdAt: '2026-12-07T10:00:00Z',
  lastUpdatedAt: '2026-12-07T10:00:00Z',
  ttlMs: 60_000,
  pollIntervalMs: 250,
};

type Answer = { result: unknown } | { error: { code: number; message: string } } | undefined;

/**
 * A server that answers whatever its script says, raw, over an in-memory transport: the client's reading of
 * each task reply, malformed ones included, with no SDK server in between to tidy them.
 */
class ScriptedServer implements McpTransport {
  onmessage?: McpTransport['onmessage'];
  onclose?: () => void;
  readonly requests: JSONRPCRequest[] = [];

  constructor(private readonly answer: (request: JSONRPCRequest) => Answer) {}

  /** Nothing to open: messages flow as soon as the client sends. */
  start(): Promise<void> {
    return Promise.resolve();
  }
  async close(): Promise<void> {
    this.onclose?.();
  }
  async send(message: JSONRPCMessage): Promise<void> {
    if (!('method' in message) || !('id' in message)) return;
    const request = message as JSONRPCRequest;
    this.requests.push(request);
    const answer = this.answer(request);
    if (answer) setImmediate(() => this.onmessage?.({ jsonrpc: '2.0', id: request.id, ...answer } as JSONRPCMessage));
  }
}

function legacyServer(
  script: Record<string, Answer>,
  capabilities: Record<string, unknown> = { tools: {}, tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } },
) {
  return new ScriptedServer((request) => {
    if (request.method === 'initialize')
      return { result: { protocolVersion: '2025-11-25', capabilities, serverInfo: { name: 'scripted', version: '1' } } };
    return script[request.method];
  });
}

function modernServer(script: Record<string, Answer>) {
  return new ScriptedServer((request) => {
    if (request.method === 'server/discover')
      return {
        result: {
          resultType: 'complete',
          supportedVersions: ['2026-07-28'],
          capabilities: { tools: {}, extensions: { 'io.modelcontextprotocol/tasks': {} } },
          ttlMs: 0,
          cacheScope: 'private',
          _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'scripted', version: '1' } },
        },
      };
    return script[request.method];
  });
}

async function connected(server: ScriptedServer, era: 'legacy' | '2026-07-28' = 'legacy', requestTimeoutMs = 2000) {
  const client = new McpClient(server, { serverName: 'jobs', clientInfo, requestTimeoutMs, era });
  await client.connect();
  return client;
}

const text = (value: string) => ({ content: [{ type: 'text', text: value }] });

describe('TaskClient, 2025-11-25', () => {
  it('calls a tool as a task and follows it: get, result, cancel and list, with the task params the spec names', async () => {
    const server = legacyServer({
      'tools/call': { result: { task: TASK_2025 } },
      'tasks/get': { result: { ...TASK_2025, status: 'completed' } },
      'tasks/result': { result: text('42') },
      'tasks/cancel': { result: { ...TASK_2025, status: 'cancelled' } },
      'tasks/list': { result: { tasks: [TASK_2025], nextCursor: 'next' } },
    });
    const client = await connected(server);

    expect(client.tasks.supports({ execution: { taskSupport: 'optional' } })).toBe(true);
    expect(client.tasks.supports({})).toBe(false);
    const outcome = await client.tasks.callTool('research', { topic: 'x' }, { ttlMs: 30_000 });
    expect(outcome).toEqual({
      kind: 'task',
      task: expect.objectContaining({ taskId: 't-1', status: 'working', pollIntervalMs: 250, ttlMs: 60_000 }),
    });
    expect(server.requests.find((r) => r.method === 'tools/call')?.params).toEqual({
      name: 'research',
      arguments: { topic: 'x' },
      task: { ttl: 30_000 },
    });
    expect((await client.tasks.get('t-1')).status).toBe('completed');
    expect(await client.tasks.result('t-1')).toEqual(text('42'));
    expect((await client.tasks.cancel('t-1'))?.status).toBe('cancelled');
    expect(await client.tasks.list()).toEqual({ tasks: [expect.objectContaining({ taskId: 't-1' })], nextCursor: 'next' });
    await client.close();
  });

  it('a server without the tasks capability offers no tool as a task', async () => {
    const client = await connected(legacyServer({}, { tools: {} }));
    expect(client.tasks.supports({ execution: { taskSupport: 'required' } })).toBe(false);
    await expect(client.tasks.list()).rejects.toMatchObject({ code: McpClientErrorCode.TasksUnsupported });
    await client.close();
  });

  it.each([
    ['a task without a taskId', 'tools/call', { task: { status: 'working' } }],
    ['a task that is not an object', 'tools/call', { task: 'soon' }],
    ['a status that is none of the five', 'tasks/get', { ...TASK_2025, status: 'done' }],
    ['a negative poll interval', 'tasks/get', { ...TASK_2025, pollInterval: -1 }],
    ['a result without content', 'tasks/result', { text: '42' }],
    ['a list without tasks', 'tasks/list', { items: [] }],
  ])('%s is client.task_reply_invalid, and the client goes on working', async (_, method, reply) => {
    const client = await connected(
      legacyServer({
        'tools/call': { result: { task: TASK_2025 } },
        'tasks/get': { result: TASK_2025 },
        'tasks/result': { result: text('42') },
        'tasks/list': { result: { tasks: [] } },
        [method]: { result: reply },
      }),
    );
    const run = {
      'tools/call': () => client.tasks.callTool('research', {}),
      'tasks/get': () => client.tasks.get('t-1'),
      'tasks/result': () => client.tasks.result('t-1'),
      'tasks/list': () => client.tasks.list(),
    }[method] as () => Promise<unknown>;
    await expect(run()).rejects.toMatchObject({
      code: McpClientErrorCode.TaskReplyInvalid,
      message: expect.stringContaining(`"jobs" answered ${method}`),
    });
    expect(client.isConnected).toBe(true);
    await client.close();
  });

  it("a task's JSON-RPC error is the server's, as the SDK throws it; an unanswered request times out", async () => {
    const client = await connected(
      legacyServer({ 'tasks/get': { error: { code: -32602, message: 'unknown task' } }, 'tasks/result': undefined }),
      'legacy',
      300,
    );
    await expect(client.tasks.get('nope')).rejects.toEqual(
      expect.objectContaining({ code: -32602, message: expect.stringContaining('unknown task') }),
    );
    await expect(client.tasks.get('nope')).rejects.toBeInstanceOf(ProtocolError);
    await expect(client.tasks.result('t-1')).rejects.toThrow(/timed out/);
    await client.close();
  });
});

describe('TaskClient, 2026-07-28 (SEP-2663)', () => {
  it('declares the extension per request, reads resultType "task" and a terminal task inline, and has no tasks/list', async () => {
    const server = modernServer({
      'tools/call': { result: { resultType: 'task', ...TASK_2026 } },
      'tasks/get': { result: { resultType: 'complete', ...TASK_2026, status: 'completed', result: text('done') } },
      'tasks/cancel': { result: { resultType: 'complete' } },
    });
    const client = await connected(server, '2026-07-28');

    expect(client.tasks.supports({})).toBe(true);
    const outcome = await client.tasks.callTool('research', {});
    expect(outcome).toMatchObject({ kind: 'task', task: { taskId: 't-2', pollIntervalMs: 250, ttlMs: 60_000 } });
    const call = server.requests.find((r) => r.method === 'tools/call');
    expect(call?.params?._meta).toMatchObject({
      'io.modelcontextprotocol/clientCapabilities': { extensions: { 'io.modelcontextprotocol/tasks': {} } },
    });
    const task = await client.tasks.get('t-2');
    expect(await client.tasks.result('t-2', task)).toEqual(text('done'));
    expect(await client.tasks.cancel('t-2')).toBeUndefined();
    expect(server.requests.find((r) => r.method === 'tasks/cancel')?.params).toMatchObject({ taskId: 't-2' });
    await expect(client.tasks.list()).rejects.toMatchObject({ code: McpClientErrorCode.TasksUnsupported });
    await client.close();
  });

  it("a failed task's error is thrown as the server's JSON-RPC error; a completed task without its result is invalid", async () => {
    const failed = { resultType: 'complete', ...TASK_2026, status: 'failed', error: { code: -32603, message: 'rate limited' } };
    const client = await connected(modernServer({ 'tasks/get': { result: failed } }), '2026-07-28');
    await expect(client.tasks.result('t-2')).rejects.toMatchObject({ code: -32603 });
    await client.close();

    const broken = await connected(
      modernServer({ 'tasks/get': { result: { resultType: 'complete', ...TASK_2026, status: 'completed' } } }),
      '2026-07-28',
    );
    await expect(broken.tasks.get('t-2')).rejects.toMatchObject({ code: McpClientErrorCode.TaskReplyInvalid });
    expect(broken.isConnected).toBe(true);
    await broken.close();
  });

  it('a plain result is the result at once, an input_required one is said so', async () => {
    const client = await connected(modernServer({ 'tools/call': { result: { resultType: 'complete', ...text('quick') } } }), '2026-07-28');
    expect(await client.tasks.callTool('quick', {})).toEqual({ kind: 'result', result: expect.objectContaining(text('quick')) });
    await client.close();
    const asking = await connected(
      modernServer({ 'tools/call': { result: { resultType: 'input_required', inputRequests: { a: {} } } } }),
      '2026-07-28',
    );
    expect(await asking.tasks.callTool('asks', {})).toEqual({ kind: 'input_required' });
    await asking.close();
  });
});
