import { type TestGateway, useGatewayWithSampleService } from '../test-support/test-gateway';

type Answer = {
  jsonrpc: string;
  id: unknown;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
};
const postAt = (gateway: TestGateway, body: unknown, version: string) =>
  gateway.post(typeof body === 'string' ? body : JSON.stringify(body), { 'mcp-protocol-version': version });

/** SPEC N7: 2025-03-26 servers MUST receive JSON-RPC batches; later revisions removed them. */
describe('JSON-RPC batches', () => {
  const { gateway } = useGatewayWithSampleService((config) => {
    config.mcp.maxBodyBytes = 4096;
  });

  const post = (body: unknown, version: string) => postAt(gateway(), body, version);

  it('after a 2025-03-26 initialize, answers a batch [ping, tools/list] with two results', async () => {
    const init = await post(
      {
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      },
      '2025-03-26',
    );
    expect(((await init.json()) as Answer).result?.protocolVersion).toBe('2025-03-26');
    const res = await post(
      [
        { jsonrpc: '2.0', id: 1, method: 'ping' },
        { jsonrpc: '2.0', id: 2, method: 'tools/list' },
      ],
      '2025-03-26',
    );
    expect(res.status).toBe(200);
    const answers = (await res.json()) as Answer[];
    expect(answers.map(({ id }) => id).sort()).toEqual([1, 2]);
    expect(answers.find(({ id }) => id === 1)).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
    expect((answers.find(({ id }) => id === 2)?.result?.tools as Array<{ name: string }>).map(({ name }) => name)).toContain('echo_text');
  });

  it('answers each member as it would be alone: a tool call, an unknown method, an invalid member; nothing for a notification', async () => {
    const res = await post(
      [
        { jsonrpc: '2.0', id: 'call', method: 'tools/call', params: { name: 'echo_text', arguments: { text: 'in a batch' } } },
        { jsonrpc: '2.0', method: 'notifications/initialized' },
        { jsonrpc: '2.0', id: 'nope', method: 'no/such/method' },
        { jsonrpc: '1.0', id: 'bad' },
      ],
      '2025-03-26',
    );
    expect(res.status).toBe(200);
    const answers = (await res.json()) as Answer[];
    expect(answers).toHaveLength(3);
    expect(answers.find(({ id }) => id === 'call')?.result).toMatchObject({
      content: [{ type: 'text', text: 'in a batch' }],
      isError: false,
    });
    expect(answers.find(({ id }) => id === 'nope')?.error?.code).toBe(-32601);
    expect(answers.find(({ id }) => id === 'bad')?.error?.code).toBe(-32600);
  });

  it('serves a genuine 2025-03-26 client, which sends no MCP-Protocol-Version (it came in 2025-06-18): initialize, then a mixed batch', async () => {
    const headerless = (body: unknown) =>
      fetch(gateway().url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify(body),
      });
    const init = await headerless({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'old', version: '1' } },
    });
    expect(((await init.json()) as Answer).result?.protocolVersion).toBe('2025-03-26');
    const res = await headerless([
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 'list', method: 'tools/list' },
      { jsonrpc: '2.0', id: 'call', method: 'tools/call', params: { name: 'echo_text', arguments: { text: 'headerless' } } },
      { jsonrpc: '2.0', id: 'nope', method: 'no/such/method' },
    ]);
    expect(res.status).toBe(200);
    const answers = (await res.json()) as Answer[];
    expect(answers.map(({ id }) => id)).toEqual(['list', 'call', 'nope']);
    expect((answers[0].result?.tools as Array<{ name: string }>).map(({ name }) => name)).toContain('echo_text');
    expect(answers[1].result).toMatchObject({ content: [{ type: 'text', text: 'headerless' }], isError: false });
    expect(answers[2].error?.code).toBe(-32601);
  });

  it('answers a batch of notifications only with 202', async () => {
    const res = await post(
      [
        { jsonrpc: '2.0', method: 'notifications/initialized' },
        { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } },
      ],
      '2025-03-26',
    );
    expect(res.status).toBe(202);
    expect(await res.text()).toBe('');
  });

  it('applies the body limit to the whole batch', async () => {
    const member = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo_text', arguments: { text: 'x'.repeat(1500) } } };
    expect((await post([member], '2025-03-26')).status).toBe(200);
    expect((await post([member, member, member], '2025-03-26')).status).toBe(413);
  });

  it('refuses a batch of more than mcp.maxBatchMembers (32) messages whole, with one -32600 naming the limit', async () => {
    const res = await post(
      Array.from({ length: 33 }, (_, id) => ({ jsonrpc: '2.0', id, method: 'ping' })),
      '2025-03-26',
    );
    expect(res.status).toBe(400);
    expect(((await res.json()) as Answer).error).toEqual({
      code: -32600,
      message: expect.stringContaining('33 messages, more than maxBatchMembers (32)'),
      data: { limit: 'maxBatchMembers', maximum: 32 },
    });
  });

  for (const version of ['2025-06-18', '2025-11-25']) {
    it(`still refuses a batch at ${version} with -32600`, async () => {
      const res = await post(
        [
          { jsonrpc: '2.0', id: 1, method: 'ping' },
          { jsonrpc: '2.0', id: 2, method: 'tools/list' },
        ],
        version,
      );
      expect(res.status).toBe(400);
      expect(((await res.json()) as Answer).error).toMatchObject({
        code: -32600,
        message: expect.stringContaining('batches are not supported'),
      });
    });
  }

  it('refuses a batch at 2026-07-28, whose requests stand alone', async () => {
    const res = await post([{ jsonrpc: '2.0', id: 1, method: 'tools/list' }], '2026-07-28');
    expect(res.status).toBe(400);
    expect(((await res.json()) as Answer).error?.code).toBe(-32600);
  });
});

describe('JSON-RPC batches past mcp.maxBatchResponseBytes', () => {
  const { gateway } = useGatewayWithSampleService((config) => {
    config.mcp.maxBatchResponseBytes = 1;
  });

  it('answers the request that crossed the limit whole, and each later request with -32600 naming the limit', async () => {
    const call = (id: string) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'echo_text', arguments: { text: id } } });
    const res = await postAt(
      gateway(),
      [call('first'), { jsonrpc: '2.0', method: 'notifications/initialized' }, call('second')],
      '2025-03-26',
    );
    expect(res.status).toBe(200);
    const answers = (await res.json()) as Answer[];
    expect(answers.map(({ id }) => id)).toEqual(['first', 'second']);
    expect(answers[0].result).toMatchObject({ content: [{ type: 'text', text: 'first' }], isError: false });
    expect(answers[1].error).toEqual({
      code: -32600,
      message: expect.stringContaining('past maxBatchResponseBytes (1)'),
      data: { limit: 'maxBatchResponseBytes', maximum: 1 },
    });
  });
});
