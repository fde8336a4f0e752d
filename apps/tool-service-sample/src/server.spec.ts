import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import path from 'node:path';

import { SchemaCompiler } from '@toolmesh/protocol';

import { MAX_BODY_BYTES } from './http/read-body';
import { startToolService, type ToolService } from './server';

const MANIFEST_SCHEMA = path.join(__dirname, '../../../docs/schemas/tool-manifest.schema.json');

interface Answer {
  status: number;
  contentType: string | null;
  text: string;
}

describe('tool service (in process, real HTTP)', () => {
  let service: ToolService;

  beforeAll(async () => {
    service = await startToolService({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => service.close());
  beforeEach(async () => {
    await fetch(`${service.url}/_calls`, { method: 'DELETE' });
  });

  async function send(method: string, pathname: string, body?: string, headers: Record<string, string> = {}): Promise<Answer> {
    const res = await fetch(`${service.url}${pathname}`, { method, body, headers: { 'content-type': 'application/json', ...headers } });
    return { status: res.status, contentType: res.headers.get('content-type'), text: await res.text() };
  }
  const call = (tool: string, args: unknown = {}, headers?: Record<string, string>) =>
    send('POST', `/tools/${tool}`, JSON.stringify(args), headers);
  const json = (answer: Answer): unknown => JSON.parse(answer.text);
  const getJson = async (pathname: string): Promise<unknown> => json(await send('GET', pathname));

  describe('GET /tool-manifest', () => {
    it('is valid against docs/schemas/tool-manifest.schema.json', async () => {
      const manifestDocument = new SchemaCompiler({ strict: true }).compile(JSON.parse(readFileSync(MANIFEST_SCHEMA, 'utf8')));
      expect(manifestDocument.check(await getJson('/tool-manifest'), 'manifest')).toEqual({ ok: true });
    });

    it('is what config/local-core-tools-manifest-sample-v1.json (the local fallback) holds', async () => {
      const fallback = JSON.parse(readFileSync(path.join(__dirname, '../../../config/local-core-tools-manifest-sample-v1.json'), 'utf8'));
      expect(await getJson('/tool-manifest')).toEqual(fallback);
    });

    it('changes at every call of test_trigger_tool_change: test_added_tool comes, then goes, and a new test_change_<n> each time', async () => {
      type Manifest = { revision: string; tools: Array<{ name: string }> };
      const names = (manifest: Manifest) => manifest.tools.map((tool) => tool.name);
      const before = (await getJson('/tool-manifest')) as Manifest;
      expect(json(await call('test_trigger_tool_change'))).toEqual({ data: 'test_added_tool added' });
      const added = (await getJson('/tool-manifest')) as Manifest;
      expect(names(added)).toEqual([...names(before), 'test_added_tool', 'test_change_1']);
      expect(added.revision).not.toBe(before.revision);
      expect(json(await call('test_added_tool'))).toEqual({ data: 'added' });
      expect(json(await call('test_trigger_tool_change'))).toEqual({ data: 'test_added_tool removed' });
      // Two calls never cancel out: whoever reads the list only before and after both sees a change.
      const removed = (await getJson('/tool-manifest')) as Manifest;
      expect(names(removed)).toEqual([...names(before), 'test_change_2']);
      expect(removed.revision).not.toBe(before.revision);
      expect((await call('test_added_tool')).status).toBe(404);
      expect((await call('test_change_1')).status).toBe(404);
    });

    it('lists every tool once, each at /tools/<name> with a timeout, annotations and a closed input schema', async () => {
      const manifest = (await getJson('/tool-manifest')) as {
        manifestVersion: string;
        revision: string;
        service: { name: string };
        tools: Array<{ name: string; endpoint: string; timeoutMillis: number; annotations: object; inputSchema: object }>;
      };
      expect(manifest).toMatchObject({
        manifestVersion: '1',
        revision: expect.stringMatching(/^[0-9a-f]{12}$/),
        service: { name: 'tool-service-sample' },
      });
      // Less the mark of the last change an earlier test made (test_change_<n>, changing-tools.ts).
      const names = manifest.tools.map((tool) => tool.name).filter((name) => !/^test_change_\d+$/.test(name));
      expect(names.sort()).toEqual(
        [
          'always_fails',
          'customer_lookup',
          'echo_text',
          'get_service_info',
          'missing_data_field',
          'non_json_reply',
          'order_search',
          'product_search',
          'retired_tool',
          'slow_operation',
          'test_error_handling',
          'test_simple_text',
          'json_schema_2020_12_tool',
          'test_custom_headers',
          'test_logging_tool',
          'test_trigger_tool_change',
          'test_missing_capability',
          'test_streaming_elicitation',
          'test_input_required_result_elicitation',
          'test_input_required_result_sampling',
          'test_input_required_result_list_roots',
          'test_input_required_result_request_state',
          'test_input_required_result_multiple_inputs',
          'test_input_required_result_multi_round',
          'test_input_required_result_tampered_state',
          'test_input_required_result_capabilities',
          'greet',
          'slow_compute',
          'generate_report',
          'failing_job',
          'protocol_error_job',
          'confirm_delete',
          'test_tool_with_task',
        ].sort(),
      );
      for (const tool of manifest.tools) {
        expect(tool).toMatchObject({
          endpoint: `/tools/${tool.name}`,
          timeoutMillis: expect.any(Number),
          annotations: { readOnlyHint: tool.name !== 'test_trigger_tool_change' },
          inputSchema: { type: 'object', additionalProperties: false },
        });
      }
      expect(manifest.tools.find((tool) => tool.name === 'slow_operation')?.timeoutMillis).toBe(1000);
    });

    it('publishes input schemas that compile under JSON Schema 2020-12 in strict mode', async () => {
      const { tools } = (await getJson('/tool-manifest')) as { tools: Array<{ inputSchema: Record<string, unknown> }> };
      const schemas = new SchemaCompiler({ strict: true });
      for (const tool of tools) expect(() => schemas.compile(tool.inputSchema)).not.toThrow();
    });
  });

  it('GET /tool-service-manifest names the service, its revision and its tools (the routing hint)', async () => {
    const manifest = (await getJson('/tool-manifest')) as { revision: string; tools: Array<{ name: string }> };
    expect(await getJson('/tool-service-manifest')).toEqual({
      service: { name: 'tool-service-sample', title: 'Sample tool service' },
      revision: manifest.revision,
      tools: manifest.tools.map((tool) => tool.name),
    });
  });

  describe('tool calls', () => {
    it.each<[string, unknown, number, unknown]>([
      ['echo_text', { text: 'hello, gateway' }, 200, { data: 'hello, gateway' }],
      [
        'get_service_info',
        {},
        200,
        { data: { name: 'tool-service-sample', title: 'Sample tool service', version: expect.any(String), toolCount: 32 } },
      ],
      ['slow_operation', { delayMillis: 20 }, 200, { data: 'waited 20 ms' }],
      ['always_fails', {}, 500, { error: expect.any(String) }],
      ['retired_tool', {}, 404, { error: expect.any(String) }],
      ['missing_data_field', {}, 200, { result: 'no data member' }],
      ['test_simple_text', {}, 200, { data: 'This is a simple text response for testing.' }],
      ['test_error_handling', {}, 500, { error: 'This tool intentionally returns an error for testing' }],
      ['customer_lookup', { customerId: 'C1234' }, 200, { data: 'no customer C1234' }],
    ])('%s %j answers %i', async (tool, args, status, body) => {
      const answer = await call(tool, args);
      expect(answer.contentType).toBe('application/json');
      expect([answer.status, json(answer)]).toEqual([status, body]);
    });

    it('non_json_reply answers 200 with an HTML page', async () => {
      expect(await call('non_json_reply')).toEqual({ status: 200, contentType: 'text/html', text: '<html>oops</html>' });
    });

    it('customer_lookup returns a known customer', async () => {
      expect(json(await call('customer_lookup', { customerId: 'C1001' }))).toEqual({
        data: expect.objectContaining({ customerId: 'C1001', name: 'Quillfeather Stationers' }),
      });
    });

    it('order_search filters by customer and status, newest first, up to the limit', async () => {
      const { data: ofCustomer } = json(await call('order_search', { customerId: 'C1001' })) as {
        data: Array<{ customerId: string; placedOn: string }>;
      };
      expect(ofCustomer.length).toBeGreaterThan(1);
      expect(ofCustomer.every((order) => order.customerId === 'C1001')).toBe(true);
      expect(ofCustomer.map((order) => order.placedOn)).toEqual(
        ofCustomer
          .map((order) => order.placedOn)
          .sort()
          .reverse(),
      );

      const { data: pending } = json(await call('order_search', { status: 'pending', limit: 2 })) as { data: Array<{ status: string }> };
      expect(pending).toHaveLength(2);
      expect(pending.every((order) => order.status === 'pending')).toBe(true);

      const { data: unfiltered } = json(await call('order_search')) as { data: unknown[] };
      expect(unfiltered).toHaveLength(10);
      expect(json(await call('order_search', { customerId: 'C9999' }))).toEqual({ data: [] });
    });

    it('product_search matches name or description case-insensitively, up to maxResults', async () => {
      const { data: found } = json(await call('product_search', { query: 'WHITEBOARD' })) as {
        data: Array<{ name: string; description: string }>;
      };
      expect(found.length).toBeGreaterThan(1);
      expect(found.every((product) => `${product.name} ${product.description}`.toLowerCase().includes('whiteboard'))).toBe(true);
      expect(json(await call('product_search', { query: 'e', maxResults: 3 }))).toEqual({ data: expect.any(Array) });
      expect((json(await call('product_search', { query: 'e', maxResults: 3 })) as { data: unknown[] }).data).toHaveLength(3);
      expect(json(await call('product_search', { query: 'no such thing' }))).toEqual({ data: [] });
    });

    it.each<[string, string, unknown]>([
      ['echo_text', 'without text', {}],
      ['echo_text', 'with 10001 characters', { text: 'x'.repeat(10001) }],
      ['echo_text', 'with an unknown argument', { text: 'hi', extra: true }],
      ['slow_operation', 'with a negative delay', { delayMillis: -1 }],
      ['slow_operation', 'with a fractional delay', { delayMillis: 1.5 }],
      ['slow_operation', 'with a delay over 120 s', { delayMillis: 120001 }],
      ['customer_lookup', 'with a malformed id', { customerId: 'c1001' }],
      ['order_search', 'with an unknown status', { status: 'lost' }],
      ['order_search', 'with a limit over 50', { limit: 51 }],
      ['product_search', 'with an empty query', { query: '' }],
      ['product_search', 'with maxResults over 20', { query: 'pen', maxResults: 21 }],
      ['get_service_info', 'with an argument', { verbose: true }],
    ])('refuses %s %s with 400 and a JSON error', async (tool, _case, args) => {
      const answer = await call(tool, args);
      expect(answer.status).toBe(400);
      expect(json(answer)).toEqual({ error: expect.stringMatching(/^invalid arguments: /) });
    });
  });

  describe('bad requests are answered, never crash the service', () => {
    it.each<[string, string]>([
      ['malformed JSON', '{"text": '],
      ['a JSON array instead of an object', '["hi"]'],
      ['JSON null', 'null'],
    ])('answers a body of %s with 400 and a JSON error', async (_case, body) => {
      const answer = await send('POST', '/tools/echo_text', body);
      expect([answer.status, answer.contentType]).toEqual([400, 'application/json']);
      expect(json(answer)).toEqual({ error: expect.any(String) });
    });

    it('treats an empty body as no arguments', async () => {
      expect(json(await send('POST', '/tools/test_simple_text'))).toEqual({ data: 'This is a simple text response for testing.' });
    });

    it('answers 404 for an unknown tool or path, and 405 with Allow for a wrong method', async () => {
      for (const [method, pathname] of [
        ['POST', '/tools/no_such_tool'],
        ['POST', '/tools/'],
        ['GET', '/nope'],
        ['GET', '/tools/__proto__'],
      ]) {
        const answer = await send(method, pathname);
        expect([method, pathname, answer.status, json(answer)]).toEqual([method, pathname, 404, { error: expect.any(String) }]);
      }
      const res = await fetch(`${service.url}/tools/echo_text`);
      expect([res.status, res.headers.get('allow'), await res.json()]).toEqual([405, 'POST', { error: expect.any(String) }]);
      expect((await send('POST', '/tool-manifest')).status).toBe(405);
      expect((await send('PUT', '/_calls')).status).toBe(405);
    });

    it('refuses a body over 1 MiB with 413, declared or streamed, and keeps serving', async () => {
      const declared = await send('POST', '/tools/echo_text', 'x'.repeat(MAX_BODY_BYTES + 1));
      expect([declared.status, json(declared)]).toEqual([413, { error: expect.any(String) }]);

      const streamed = await new Promise<number>((resolve, reject) => {
        const req = request(`${service.url}/tools/echo_text`, { method: 'POST' }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on('error', reject);
        const chunk = 'x'.repeat(64 * 1024); // no content-length: chunked, so only counting can catch it
        for (let sent = 0; sent <= MAX_BODY_BYTES; sent += chunk.length) req.write(chunk);
        req.end();
      });
      expect(streamed).toBe(413);

      expect(json(await call('echo_text', { text: 'still here' }))).toEqual({ data: 'still here' });
    });
  });

  describe('diagnostic endpoints', () => {
    it('GET /_calls records the forwarded headers (lower-case, only the known ones) and the arguments', async () => {
      await call(
        'echo_text',
        { text: 'first' },
        {
          guid: 'guid-1',
          'X-Request-Id': 'req-1',
          'Mcp-Session-Id': 'session-1',
          'employee-no': 'E100',
          'virtual-employee-no': 'V200',
          'X-Caller-IP': '10.0.0.7',
          'X-Caller-Host': 'agent.example',
          Authorization: 'Bearer token-1',
          'x-unrelated': 'not recorded',
        },
      );
      await call('get_service_info');
      expect(await getJson('/_calls')).toEqual([
        {
          tool: 'echo_text',
          headers: {
            guid: 'guid-1',
            'x-request-id': 'req-1',
            'mcp-session-id': 'session-1',
            'employee-no': 'E100',
            'virtual-employee-no': 'V200',
            'x-caller-ip': '10.0.0.7',
            'x-caller-host': 'agent.example',
            authorization: 'Bearer token-1',
            'content-type': 'application/json',
          },
          body: { text: 'first' },
        },
        { tool: 'get_service_info', headers: { 'content-type': 'application/json' }, body: {} },
      ]);
    });

    it('DELETE /_calls clears the record', async () => {
      await call('echo_text', { text: 'to be cleared' });
      expect((await send('DELETE', '/_calls')).status).toBe(204);
      expect(await getJson('/_calls')).toEqual([]);
    });

    it('GET /_stats counts manifest fetches and tool calls', async () => {
      const before = (await getJson('/_stats')) as { manifestFetches: number; calls: number };
      await send('GET', '/tool-manifest');
      await call('echo_text', { text: 'counted' });
      await call('always_fails');
      await send('POST', '/tools/echo_text', '{broken'); // never reached a tool
      expect(await getJson('/_stats')).toEqual({ manifestFetches: before.manifestFetches + 1, calls: before.calls + 2 });
    });
  });

  it('clears the timer of a slow call whose caller hangs up', async () => {
    const timers = () => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
    const idle = timers();
    const caller = new AbortController();
    const slow = fetch(`${service.url}/tools/slow_operation`, { method: 'POST', body: '{"delayMillis": 60000}', signal: caller.signal });
    await waitFor(() => timers() > idle);
    caller.abort();
    await expect(slow).rejects.toThrow();
    await waitFor(() => timers() === idle);
  });
});

describe('tool service shutdown', () => {
  it('close() aborts a running slow call, answers it 503 and resolves at once', async () => {
    const service = await startToolService({ port: 0, host: '127.0.0.1' });
    const slow = fetch(`${service.url}/tools/slow_operation`, { method: 'POST', body: '{"delayMillis": 60000}' });
    await waitFor(async () => ((await (await fetch(`${service.url}/_stats`)).json()) as { calls: number }).calls === 1);
    const started = Date.now();
    await service.close();
    expect(Date.now() - started).toBeLessThan(2000);
    const res = await slow;
    expect([res.status, await res.json()]).toEqual([503, { error: 'the service is shutting down' }]);
  });

  it('keeps only the most recent calls, as many as callLogCapacity', async () => {
    const service = await startToolService({ port: 0, host: '127.0.0.1', callLogCapacity: 2 });
    try {
      for (const text of ['one', 'two', 'three']) {
        await fetch(`${service.url}/tools/echo_text`, { method: 'POST', body: JSON.stringify({ text }) });
      }
      const calls = (await (await fetch(`${service.url}/_calls`)).json()) as Array<{ body: unknown }>;
      expect(calls.map((recorded) => recorded.body)).toEqual([{ text: 'two' }, { text: 'three' }]);
    } finally {
      await service.close();
    }
  });
});

/** Polls until the condition holds; fails the test after two seconds. */
async function waitFor(condition: () => boolean | Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 2000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met within 2 s');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
