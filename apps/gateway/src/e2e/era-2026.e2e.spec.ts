import { request } from 'node:http';

import { startTestGateway, type TestGateway, useGatewayWithSampleService } from '../test-support/test-gateway';

const VERSION = '2026-07-28';
const META = { 'io.modelcontextprotocol/protocolVersion': VERSION, 'io.modelcontextprotocol/clientCapabilities': {} };
const SERVER_INFO = {
  'io.modelcontextprotocol/serverInfo': expect.objectContaining({ name: 'toolmesh-gateway', version: expect.any(String) }),
};

interface Answer {
  status: number;
  body: { id?: unknown; result?: Record<string, unknown>; error?: { code: number; message: string; data?: unknown } };
}

/** A 2026 request as a well-behaved client sends it; `headers` replace (or, undefined, drop) what a case changes. */
async function modern(
  gateway: TestGateway,
  method: string,
  params: Record<string, unknown> = {},
  headers: Record<string, string | undefined> = {},
): Promise<Answer> {
  const name = typeof params.name === 'string' ? params.name : undefined;
  const all: Record<string, string | undefined> = {
    'mcp-protocol-version': VERSION,
    'mcp-method': method,
    ...(name !== undefined && { 'mcp-name': name }),
    ...headers,
  };
  const sent = Object.fromEntries(Object.entries(all).filter((entry): entry is [string, string] => entry[1] !== undefined));
  const res = await fetch(gateway.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...sent },
    body: JSON.stringify({ jsonrpc: '2.0', id: 42, method, params: { _meta: META, ...params } }),
  });
  return answer(res);
}

describe('the 2026-07-28 era (SPEC G25)', () => {
  const { gateway, tools } = useGatewayWithSampleService();

  describe('results', () => {
    it('server/discover names every version served, 2026 first, and the capabilities', async () => {
      const { status, body } = await modern(gateway(), 'server/discover');
      expect(status).toBe(200);
      expect(body.result).toEqual({
        supportedVersions: ['2026-07-28', '2025-03-26', '2025-06-18', '2025-11-25'],
        capabilities: { tools: { listChanged: true }, prompts: {}, resources: {} },
        resultType: 'complete',
        ttlMs: 60_000,
        cacheScope: 'public',
        _meta: SERVER_INFO,
      });
    });

    it('tools/list carries resultType, the cache hints and serverInfo beside the tools', async () => {
      const { status, body } = await modern(gateway(), 'tools/list');
      expect(status).toBe(200);
      expect(body.result).toMatchObject({ resultType: 'complete', ttlMs: 60_000, cacheScope: 'public', _meta: SERVER_INFO });
      expect((body.result?.tools as Array<{ name: string }>).map((tool) => tool.name)).toContain('echo_text');
    });

    it('tools/call carries resultType and serverInfo; argument problems are isError results', async () => {
      const ok = await modern(gateway(), 'tools/call', { name: 'echo_text', arguments: { text: 'hi' } });
      expect(ok).toMatchObject({
        status: 200,
        body: { id: 42, result: { content: [{ type: 'text', text: 'hi' }], isError: false, resultType: 'complete', _meta: SERVER_INFO } },
      });
      const invalid = await modern(gateway(), 'tools/call', { name: 'echo_text', arguments: {} });
      expect(invalid).toMatchObject({ status: 200, body: { result: { isError: true, resultType: 'complete' } } });
    });

    it('serves the prompt and resource lists empty, as discover declares', async () => {
      for (const [method, member] of [
        ['prompts/list', 'prompts'],
        ['resources/list', 'resources'],
        ['resources/templates/list', 'resourceTemplates'],
      ]) {
        expect(await modern(gateway(), method)).toMatchObject({
          status: 200,
          body: { result: { [member]: [], resultType: 'complete', cacheScope: 'public' } },
        });
      }
    });

    it('checks the Mcp-Param-* headers of x-mcp-header arguments: Base64 decoded, integers compared as numbers', async () => {
      const args = { region: 'Zürich', priority: 3, query: 'q' };
      const region = `=?base64?${Buffer.from('Zürich').toString('base64')}?=`;
      const ok = await modern(
        gateway(),
        'tools/call',
        { name: 'test_custom_headers', arguments: args },
        { 'mcp-param-region': region, 'mcp-param-priority': '+3' },
      );
      expect(ok).toMatchObject({ status: 200, body: { result: { isError: false, content: [{ text: 'q in Zürich at priority 3' }] } } });
    });
  });

  describe('trace context, continued into the tool call as W3C headers', () => {
    const TRACEPARENT = '00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01';
    const lastCallHeaders = async () => (await tools().calls()).at(-1)?.headers;
    beforeEach(() => tools().clearCalls());

    it("takes a 2026 request's _meta keys", async () => {
      await modern(gateway(), 'tools/call', {
        name: 'echo_text',
        arguments: { text: 'x' },
        _meta: { ...META, traceparent: TRACEPARENT, tracestate: 'congo=t61rcWkgMzE', baggage: 'userId=alice' },
      });
      expect(await lastCallHeaders()).toMatchObject({ traceparent: TRACEPARENT, tracestate: 'congo=t61rcWkgMzE', baggage: 'userId=alice' });
    });

    it("takes a 2025 request's HTTP headers", async () => {
      await gateway().rpc('tools/call', { name: 'echo_text', arguments: { text: 'x' } }, { traceparent: TRACEPARENT, tracestate: 'a=b' });
      expect(await lastCallHeaders()).toMatchObject({ traceparent: TRACEPARENT, tracestate: 'a=b' });
    });

    it('drops a malformed traceparent, and the tracestate and baggage that depend on it', async () => {
      await modern(gateway(), 'tools/call', {
        name: 'echo_text',
        arguments: { text: 'x' },
        _meta: { ...META, traceparent: 'not-a-trace\r\nx-evil: 1', tracestate: 'a=b' },
      });
      const headers = await lastCallHeaders();
      expect(headers?.traceparent).toBeUndefined();
      expect(headers?.tracestate).toBeUndefined();
    });
  });

  describe('a tool service that asks for input (MRTR), relayed', () => {
    it('answers a client that did not declare the capability the request needs with -32021 and HTTP 400', async () => {
      const { status, body } = await modern(gateway(), 'tools/call', { name: 'test_missing_capability', arguments: {} });
      expect(status).toBe(400);
      expect(body.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { sampling: {} } } });
    });

    it("relays the request as an input_required result with the state sealed, then the retry's answers and the state as issued to the tool service", async () => {
      const withElicitation = { _meta: { ...META, 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } } };
      const first = await modern(gateway(), 'tools/call', { name: 'test_streaming_elicitation', arguments: {}, ...withElicitation });
      expect(first.status).toBe(200);
      expect(first.body.result).toEqual({
        resultType: 'input_required',
        inputRequests: { name: { method: 'elicitation/create', params: expect.objectContaining({ message: 'Your name?' }) } },
        requestState: expect.stringMatching(/^v2\.[A-Za-z0-9_-]+$/),
        _meta: SERVER_INFO,
      });
      expect(first.body.result?.requestState).not.toContain(Buffer.from('asked-for-name').toString('base64url'));
      const answers = { name: { action: 'accept', content: { name: 'Ada' } } };
      await tools().clearCalls();
      const retry = await modern(gateway(), 'tools/call', {
        name: 'test_streaming_elicitation',
        arguments: {},
        inputResponses: answers,
        requestState: first.body.result?.requestState,
        ...withElicitation,
      });
      expect(retry.body.result).toMatchObject({
        resultType: 'complete',
        isError: false,
        content: [{ text: `hello ${JSON.stringify(answers)}` }],
      });
      expect((await tools().calls())[0].headers['mcp-request-state']).toBe(Buffer.from('asked-for-name').toString('base64url'));
    });

    it('refuses a forged or altered requestState with -32602 before it reaches the tool service', async () => {
      const withElicitation = { _meta: { ...META, 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } } };
      const first = await modern(gateway(), 'tools/call', { name: 'test_streaming_elicitation', arguments: {}, ...withElicitation });
      const sealed = first.body.result?.requestState as string;
      await tools().clearCalls();
      for (const requestState of ['asked-for-name', `${sealed}-TAMPERED`, `${sealed.slice(0, -1)}${sealed.endsWith('A') ? 'B' : 'A'}`]) {
        const retry = await modern(gateway(), 'tools/call', {
          name: 'test_streaming_elicitation',
          arguments: {},
          inputResponses: {},
          requestState,
          ...withElicitation,
        });
        expect({ requestState, status: retry.status, code: retry.body.error?.code }).toEqual({ requestState, status: 200, code: -32602 });
      }
      // Nor may a state issued for one tool be brought to another.
      const elsewhere = await modern(gateway(), 'tools/call', {
        name: 'test_input_required_result_tampered_state',
        arguments: {},
        inputResponses: {},
        requestState: sealed,
        ...withElicitation,
      });
      expect(elsewhere.body.error?.code).toBe(-32602);
      expect(await tools().calls()).toEqual([]);
    });

    it('refuses a state replayed by another caller or with other arguments, saying why, before it reaches the tool service', async () => {
      const withElicitation = { _meta: { ...META, 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } } };
      const askedOf = { 'employee-no': 'E100' };
      const first = await modern(
        gateway(),
        'tools/call',
        { name: 'test_streaming_elicitation', arguments: {}, ...withElicitation },
        askedOf,
      );
      const retry = (args: Record<string, unknown>, headers: Record<string, string>) =>
        modern(
          gateway(),
          'tools/call',
          {
            name: 'test_streaming_elicitation',
            arguments: args,
            inputResponses: {},
            requestState: first.body.result?.requestState,
            ...withElicitation,
          },
          headers,
        );
      await tools().clearCalls();
      const otherCaller = await retry({}, { 'employee-no': 'E200' });
      expect(otherCaller.body.error).toMatchObject({ code: -32602, message: expect.stringContaining('issued to another caller') });
      const otherRequest = await retry({ extra: 'x' }, askedOf);
      expect(otherRequest.body.error).toMatchObject({ code: -32602, message: expect.stringContaining('issued for other arguments') });
      expect(await tools().calls()).toEqual([]);
      expect((await retry({}, askedOf)).body.result).toMatchObject({ resultType: 'complete', isError: false });
    });

    it('refuses inputResponses that are not an object of result objects with -32602', async () => {
      for (const inputResponses of [null, 12, ['a'], { user_name: 12345 }]) {
        const retry = await modern(gateway(), 'tools/call', { name: 'test_streaming_elicitation', arguments: {}, inputResponses });
        expect({ inputResponses, code: retry.body.error?.code }).toEqual({ inputResponses, code: -32602 });
      }
    });

    it('tells a 2025 client, which cannot answer, in an isError result', async () => {
      const reply = await gateway().rpc('tools/call', { name: 'test_streaming_elicitation', arguments: {} });
      expect(reply.result?.isError).toBe(true);
      expect(reply.result?.content?.[0].text).toContain('relays to 2026-07-28 clients only');
    });
  });

  // The error table of the revision (basic/index §Error Codes; digest §9), one row per case, with its HTTP status.
  const rows: Array<[string, number, number, () => Promise<Answer>]> = [
    ['an unknown method', 404, -32601, () => modern(gateway(), 'tools/frobnicate')],
    [
      'initialize, removed',
      404,
      -32601,
      () => modern(gateway(), 'initialize', { protocolVersion: VERSION, capabilities: {}, clientInfo: { name: 'c', version: '1' } }),
    ],
    ['ping, removed', 404, -32601, () => modern(gateway(), 'ping')],
    ['logging/setLevel, removed', 404, -32601, () => modern(gateway(), 'logging/setLevel', { level: 'info' })],
    ['resources/subscribe, removed', 404, -32601, () => modern(gateway(), 'resources/subscribe', { uri: 'x' })],
    [
      'a missing _meta',
      400,
      -32602,
      async () =>
        answer(
          await gateway().post(
            { jsonrpc: '2.0', id: 1, method: 'tools/list' },
            { 'mcp-protocol-version': VERSION, 'mcp-method': 'tools/list' },
          ),
        ),
    ],
    [
      'a _meta without clientCapabilities',
      400,
      -32602,
      () => modern(gateway(), 'tools/list', { _meta: { 'io.modelcontextprotocol/protocolVersion': VERSION } }),
    ],
    [
      'a _meta with a protocol version that is not a string',
      400,
      -32602,
      () => modern(gateway(), 'tools/list', { _meta: { ...META, 'io.modelcontextprotocol/protocolVersion': 7 } }),
    ],
    ['an unknown tool', 200, -32602, () => modern(gateway(), 'tools/call', { name: 'no_such_tool', arguments: {} })],
    ['a cursor the gateway never issued', 200, -32602, () => modern(gateway(), 'tools/list', { cursor: 'bogus' })],
    ['listen without a filter', 200, -32602, () => modern(gateway(), 'subscriptions/listen')],
    ['a missing MCP-Protocol-Version', 400, -32020, () => modern(gateway(), 'tools/list', {}, { 'mcp-protocol-version': undefined })],
    [
      'an MCP-Protocol-Version other than _meta',
      400,
      -32020,
      () => modern(gateway(), 'tools/list', {}, { 'mcp-protocol-version': '2025-11-25' }),
    ],
    ['a missing Mcp-Method', 400, -32020, () => modern(gateway(), 'tools/list', {}, { 'mcp-method': undefined })],
    ['an Mcp-Method other than the method', 400, -32020, () => modern(gateway(), 'tools/list', {}, { 'mcp-method': 'tools/call' })],
    [
      'a missing Mcp-Name',
      400,
      -32020,
      () => modern(gateway(), 'tools/call', { name: 'echo_text', arguments: { text: 'x' } }, { 'mcp-name': undefined }),
    ],
    [
      'an Mcp-Name other than the tool',
      400,
      -32020,
      () => modern(gateway(), 'tools/call', { name: 'echo_text', arguments: { text: 'x' } }, { 'mcp-name': 'order_search' }),
    ],
    [
      'an Mcp-Name with broken Base64',
      400,
      -32020,
      () => modern(gateway(), 'tools/call', { name: 'echo_text', arguments: { text: 'x' } }, { 'mcp-name': '=?base64?ZWNobw?=' }),
    ],
    [
      'a missing Mcp-Param-* for an argument that is set',
      400,
      -32020,
      () =>
        modern(
          gateway(),
          'tools/call',
          { name: 'test_custom_headers', arguments: { region: 'eu', priority: 1, query: 'q' } },
          { 'mcp-param-priority': '1' },
        ),
    ],
    [
      'an Mcp-Param-* other than the argument',
      400,
      -32020,
      () =>
        modern(
          gateway(),
          'tools/call',
          { name: 'test_custom_headers', arguments: { region: 'eu', priority: 1, query: 'q' } },
          { 'mcp-param-region': 'us', 'mcp-param-priority': '1' },
        ),
    ],
    [
      'a version not served',
      400,
      -32022,
      () =>
        modern(
          gateway(),
          'tools/list',
          { _meta: { ...META, 'io.modelcontextprotocol/protocolVersion': '2099-01-01' } },
          { 'mcp-protocol-version': '2099-01-01' },
        ),
    ],
  ];

  it.each(rows)('answers %s with HTTP %i and %i', async (_, status, code, send) => {
    const { status: got, body } = await send();
    expect({ status: got, code: body.error?.code }).toEqual({ status, code });
    expect(body.error?.message).toEqual(expect.any(String));
  });

  it('a -32022 offers every version served and echoes the one asked for', async () => {
    const { body } = await modern(
      gateway(),
      'tools/list',
      { _meta: { ...META, 'io.modelcontextprotocol/protocolVersion': '2099-01-01' } },
      { 'mcp-protocol-version': '2099-01-01' },
    );
    expect(body.error?.data).toEqual({ supported: ['2026-07-28', '2025-03-26', '2025-06-18', '2025-11-25'], requested: '2099-01-01' });
  });

  it('a 2026 header without _meta is a 2026 request missing its _meta, not a 2025 one', async () => {
    const res = await gateway().post({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, { 'mcp-protocol-version': VERSION });
    expect(res.status).toBe(400);
    expect(((await res.json()) as Answer['body']).error?.code).toBe(-32602);
  });

  it('initialize with a 2026 MCP-Protocol-Version header is a header mismatch', async () => {
    const res = await gateway().post(
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } },
      },
      { 'mcp-protocol-version': VERSION },
    );
    expect(res.status).toBe(400);
    expect(((await res.json()) as Answer['body']).error?.code).toBe(-32020);
  });

  it('answers GET and DELETE carrying a 2026 version with 405', async () => {
    for (const method of ['GET', 'DELETE']) {
      const res = await fetch(gateway().url, { method, headers: { accept: 'text/event-stream', 'mcp-protocol-version': VERSION } });
      expect({ method, status: res.status, allow: res.headers.get('allow') }).toEqual({ method, status: 405, allow: 'POST' });
      expect(((await res.json()) as Answer['body']).error?.code).toBe(-32600);
    }
  });

  it('acknowledges a 2026 notification with 202', async () => {
    const res = await gateway().post(
      { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1, _meta: META } },
      { 'mcp-protocol-version': VERSION, 'mcp-method': 'notifications/cancelled' },
    );
    expect(res.status).toBe(202);
  });
});

describe('a gateway configured without 2026-07-28', () => {
  let gateway: TestGateway;
  beforeAll(async () => {
    gateway = await startTestGateway('http://127.0.0.1:9', (config) => {
      config.mcp.protocol.supportedVersions = ['2025-06-18', '2025-11-25'];
    });
  });
  afterAll(() => gateway.stop());

  it('answers a 2026 request with -32022 listing the 2025 versions, so the client falls back to initialize', async () => {
    const { status, body } = await modern(gateway, 'server/discover');
    expect(status).toBe(400);
    expect(body.error).toMatchObject({ code: -32022, data: { supported: ['2025-06-18', '2025-11-25'], requested: VERSION } });
  });
});

describe('listen streams: keep-alives, the bound, cancel by closing (SPEC G21)', () => {
  let gateway: TestGateway;
  beforeAll(async () => {
    gateway = await startTestGateway('http://127.0.0.1:9', (config) => {
      config.mcp.notifications = { ...config.mcp.notifications, maxOpenStreams: 1, keepAliveMillis: 100 };
    });
  });
  afterAll(() => gateway.stop());

  const listen = (signal: AbortSignal) =>
    fetch(gateway.url, {
      method: 'POST',
      signal,
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': VERSION,
        'mcp-method': 'subscriptions/listen',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 'L',
        method: 'subscriptions/listen',
        params: { notifications: { toolsListChanged: true }, _meta: META },
      }),
    });

  it('sends keep-alive comments on an idle stream, refuses one stream over the bound, and frees its place when the client closes it', async () => {
    const first = new AbortController();
    const open = await listen(first.signal);
    const reader = (open.body as ReadableStream<Uint8Array>).getReader();
    let text = '';
    while (!text.includes(': keep-alive')) text += new TextDecoder().decode((await reader.read()).value);
    expect(text).toMatch(/^event: message\ndata: \{"jsonrpc":"2\.0","method":"notifications\/subscriptions\/acknowledged"/);

    const refused = await listen(new AbortController().signal);
    expect(refused.status).toBe(503);
    expect(((await refused.json()) as Answer['body']).error?.code).toBe(-32603);

    first.abort(); // the client's cancel
    let again: Response | undefined;
    for (let attempt = 0; attempt < 100 && again?.status !== 200; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 20)); // the server sees the close a moment later
      again = await listen(AbortSignal.timeout(5_000));
      if (again.status !== 200) await again.body?.cancel();
    }
    expect(again?.status).toBe(200);
    await again?.body?.cancel();
  });
});

describe('the 2026 era when no catalogue could be loaded', () => {
  let gateway: TestGateway;
  beforeAll(async () => {
    gateway = await startTestGateway('http://127.0.0.1:9');
  });
  afterAll(() => gateway.stop());

  it('answers tools/list with -32603 (the revision reserves the -32000 range)', async () => {
    expect(await modern(gateway, 'tools/list')).toMatchObject({ status: 200, body: { error: { code: -32603 } } });
  });
});

async function answer(res: Response): Promise<Answer> {
  return { status: res.status, body: (await res.json()) as Answer['body'] };
}

describe('listen streams: a per-client bound and a lifetime (issue 32)', () => {
  let gateway: TestGateway;
  beforeAll(async () => {
    gateway = await startTestGateway('http://127.0.0.1:9', (config) => {
      config.mcp.notifications = {
        ...config.mcp.notifications,
        maxOpenStreams: 10,
        maxStreamsPerClient: 2,
        maxStreamLifetimeMillis: 1_500,
      };
    });
  });
  afterAll(() => gateway.stop());

  /** A listen request from `localAddress` (any 127.x address reaches loopback): its status and the stream's whole text. */
  const listenFrom = (localAddress: string) =>
    new Promise<{ status: number; text: Promise<string>; close: () => void }>((resolve, reject) => {
      const body = JSON.stringify({
        jsonrpc: '2.0',
        id: 'L',
        method: 'subscriptions/listen',
        params: { notifications: { toolsListChanged: true }, _meta: META },
      });
      const req = request(gateway.url, {
        method: 'POST',
        localAddress,
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': VERSION,
          'mcp-method': 'subscriptions/listen',
        },
      });
      req.once('error', reject);
      req.once('response', (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
        const ended = new Promise<string>((done) => res.once('close', () => done(text)));
        resolve({ status: res.statusCode ?? 0, text: ended, close: () => req.destroy() });
      });
      req.end(body);
    });

  it('refuses a third stream of one client with 429, while another client still opens one', async () => {
    const held = [await listenFrom('127.0.0.1'), await listenFrom('127.0.0.1')];
    expect(held.map((stream) => stream.status)).toEqual([200, 200]);
    const third = await listenFrom('127.0.0.1');
    expect(third.status).toBe(429);
    expect(JSON.parse(await third.text).error.message).toBe(
      'this client already has 2 open notification streams, its limit; close one first',
    );
    const other = await listenFrom('127.0.0.2');
    expect(other.status).toBe(200);
    [...held, other].forEach((stream) => stream.close());
  });

  it("counts a client's 2025 GET streams with its 2026 listens", async () => {
    const held = [await listenFrom('127.0.0.4'), await listenFrom('127.0.0.4')];
    const get = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(gateway.url, {
        localAddress: '127.0.0.4',
        headers: { accept: 'text/event-stream', 'mcp-protocol-version': '2025-11-25' },
      });
      req.once('error', reject);
      req.once('response', (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
        res.once('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.end();
    });
    expect(get.status).toBe(429);
    expect(JSON.parse(get.body).error).toEqual({
      code: -32600,
      message: 'Invalid Request: this client already has 2 open notification streams, its limit; close one first',
    });
    held.forEach((stream) => stream.close());
  });

  it('ends a stream at the end of its lifetime with the listen result', async () => {
    const stream = await listenFrom('127.0.0.3');
    expect(stream.status).toBe(200);
    const text = await stream.text; // ends by itself, or the test times out
    expect(text).toContain('"resultType":"complete"');
  });
});

describe('a sealed requestState after mcp.requestStateTtlSeconds', () => {
  const { gateway, tools } = useGatewayWithSampleService((config) => {
    config.mcp.requestStateTtlSeconds = 1;
  });

  it('is refused as expired, and the tool service is not called', async () => {
    const withElicitation = { _meta: { ...META, 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } } };
    const first = await modern(gateway(), 'tools/call', { name: 'test_streaming_elicitation', arguments: {}, ...withElicitation });
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    await tools().clearCalls();
    const late = await modern(gateway(), 'tools/call', {
      name: 'test_streaming_elicitation',
      arguments: {},
      inputResponses: {},
      requestState: first.body.result?.requestState,
      ...withElicitation,
    });
    expect(late.body.error).toMatchObject({ code: -32602, message: expect.stringContaining('has expired') });
    expect(await tools().calls()).toEqual([]);
  });
});
