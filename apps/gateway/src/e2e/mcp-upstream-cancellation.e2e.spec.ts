import { spawnGateway, writeGatewayConfig } from '@toolmesh/test-peers/gateway-process';
import { type LegacyMcpServer, startLegacyMcpServer } from '@toolmesh/test-peers/legacy-mcp-server';
import { until } from '@toolmesh/test-peers/process-table';
import type { ServerProcess } from '@toolmesh/test-peers/server-process';

/**
 * A 2025 caller's `notifications/cancelled` across the hop (issue 44): the built gateway in front of a
 * 2025 MCP server on loopback whose `wait` tool never answers. The cancellation comes in a POST of its
 * own, naming the call's id: the server is told its call is cancelled, and the caller's stream ends
 * without a response. The same id named from another session cancels nothing.
 */
const HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2025-11-25',
};

const post = (url: string, session: string, body: object) =>
  fetch(url, { method: 'POST', headers: { ...HEADERS, 'mcp-session-id': session }, body: JSON.stringify(body) });

const cancelled = (requestId: number) => ({
  jsonrpc: '2.0',
  method: 'notifications/cancelled',
  params: { requestId, reason: 'not needed' },
});

/** What `promise` resolved to within `millis`, else `pending`. */
const within = <T>(promise: Promise<T>, millis: number): Promise<T | 'pending'> =>
  Promise.race([promise, new Promise<'pending'>((resolve) => setTimeout(() => resolve('pending'), millis))]);

describe("a 2025 caller's notifications/cancelled across the hop (issue 44)", () => {
  let server: LegacyMcpServer;
  let gateway: ServerProcess & { match: RegExpExecArray };
  const url = () => gateway.match[1];
  const cancellationsReceived = () => server.received.filter(({ method }) => method === 'notifications/cancelled');

  beforeAll(async () => {
    server = await startLegacyMcpServer('never-answers', {
      answer: (method) =>
        method === 'tools/list'
          ? { result: { tools: [{ name: 'wait', inputSchema: { type: 'object' } }] } }
          : method === 'tools/call'
            ? 'unanswered'
            : undefined,
    });
    const file = writeGatewayConfig(
      `server: { port: 0, managementPort: 0 }
mcp:
  shutdownDrainMillis: 1000
  bundles:
    - { name: never, mcpServer: { url: "\${SERVER_URL}" } }
`,
    );
    gateway = await spawnGateway(file, { SERVER_URL: server.url.href });
  }, 120_000);

  afterAll(async () => {
    await gateway?.stop();
    await server?.close();
  });

  it("stops the server's call and sends no response; another session naming the same id cancels nothing", async () => {
    const call = post(url(), 'session-a', { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'wait', arguments: {} } });
    await until(() => server.received.some(({ method }) => method === 'tools/call'), 'the server got the call');

    expect((await post(url(), 'session-b', cancelled(7))).status).toBe(202);
    expect(await within(call, 500)).toBe('pending');
    expect(cancellationsReceived()).toEqual([]);

    expect((await post(url(), 'session-a', cancelled(7))).status).toBe(202);
    const answer = await within(call, 5000);
    if (answer === 'pending') throw new Error('the call was not cancelled: its answer is still pending');
    expect(answer.headers.get('content-type')).toBe('text/event-stream');
    expect(await answer.text()).not.toContain('data:');
    await until(() => cancellationsReceived().length === 1, 'the server told of the cancellation');
    // The gateway's own id of the call it made, never the caller's.
    expect(cancellationsReceived()[0].params).toMatchObject({ requestId: expect.stringMatching(/^x\d+$/) });
    await until(() => gateway.output().includes('event=tool_call_cancelled'), 'the call logged as cancelled');
  }, 30_000);
});
