import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { gatewayConfigFile, spawnGateway } from '@toolmesh/test-peers/gateway-process';
import { HEAP_PROBE_ENV, liveBytesAfterFullGc } from '@toolmesh/test-peers/heap-probe';
import { DEEP_REPLY_LEVELS, HOSTILE_MANIFEST, HUGE_MANIFEST, writeDeepReply } from '@toolmesh/test-peers/hostile-tool-service';
import { type RawExchange, rawExchange } from '@toolmesh/test-peers/raw-http';
import { type SeededRandom, seededRandom } from '@toolmesh/test-peers/seeded-random';
import type { ServerProcess } from '@toolmesh/test-peers/server-process';

import { useDocumentGateway } from '../test-support/document-gateway';

/**
 * Property (SPEC G26, N2): whatever a client sends (mutated JSON-RPC bodies, odd headers, broken HTTP
 * framing), the built gateway answers below 500 with a JSON-RPC body (an array of them for a 2025-03-26
 * batch, SPEC N7), or 202 with none, or closes the socket where HTTP allows no answer, never hangs, stays
 * alive, and its memory comes back. FUZZ_SEED replays a failure; FUZZ_REQUESTS sets the size of the run.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 0x6a7e);
const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 50_000);
const CONCURRENCY = 16;
// The baseline is taken a quarter of the way in: by then the gateway has compiled and cached what this load
// reaches (the 2026 cases, streams among them, reach more code than the first few thousand requests did).
const WARM_UP = Math.min(12_500, Math.floor(REQUESTS / 4));
// What may stay after the warm-up without a leak: code V8 compiles later (counted in the heap) and caches
// reaching their size, about 1 MB after a warm-up of 2,000 requests and none after 12,500; then 50 bytes a
// request. A leak of 210 bytes a request, injected, grew 7.9 MB against the 6.1 MB allowed.
const LEAK_ALLOWANCE_BYTES = 4 * 1024 * 1024 + 50 * (REQUESTS - WARM_UP);

const manifest = {
  tools: [
    { name: 'echo', inputSchema: { type: 'object', properties: { text: { type: 'string', maxLength: 100 } } }, endpoint: '/tools/echo' },
  ],
};
const MODERN_META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
const TEMPLATES: Array<Record<string, unknown>> = [
  {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'fuzz', version: '1' } },
  },
  { jsonrpc: '2.0', id: 2, method: 'tools/list' },
  { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'echo', arguments: { text: 'hi' } } },
  { jsonrpc: '2.0', id: 'four', method: 'ping' },
  { jsonrpc: '2.0', method: 'notifications/initialized' },
  { jsonrpc: '2.0', id: 5, method: 'resources/list', params: { cursor: 'x' } },
  { jsonrpc: '2.0', id: 6, method: 'tools/call', params: { name: 'echo', arguments: { text: 'hi' }, _meta: MODERN_META } },
  { jsonrpc: '2.0', id: 7, method: 'server/discover', params: { _meta: MODERN_META } },
  { jsonrpc: '2.0', id: 8, method: 'subscriptions/listen', params: { notifications: { toolsListChanged: true }, _meta: MODERN_META } },
];
const VALUES: unknown[] = [
  null,
  true,
  0,
  -1,
  1.5,
  2 ** 60,
  '',
  'x',
  '\u0000\u001b[31m',
  'é',
  [],
  {},
  [1, [2, [3]]],
  { a: { b: { c: 1 } } },
];
const VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05', '2026-07-28', 'garbage', ''];
const CONTENT_TYPES = ['application/json', 'application/json; charset=utf-8', 'text/plain', 'application/x-www-form-urlencoded', ''];
const ORIGINS = [undefined, undefined, 'http://127.0.0.1', 'http://localhost:6274', 'https://evil.example'];
const PATHS = ['/mcp', '/mcp', '/mcp', '/mcp?x=1', '/MCP', '/mcp/', '//mcp', '/', '/mcp/../mcp'];
const METHODS = ['POST', 'POST', 'POST', 'GET', 'DELETE', 'PUT', 'OPTIONS', 'PATCH'];

function mutateValue(r: SeededRandom, value: Record<string, unknown>): unknown {
  const copy: Record<string, unknown> = structuredClone(value);
  const keys = Object.keys(copy);
  switch (r.int(9)) {
    case 0:
      copy[r.pick(keys)] = r.pick(VALUES);
      return copy;
    case 1:
      delete copy[r.pick(keys)];
      return copy;
    case 2:
      return [copy, copy]; // a batch
    case 3:
      return { ...copy, method: `${'m'.repeat(r.int(5_000))}\u0007\u0000` };
    case 4:
      return JSON.parse(`{"__proto__":{"polluted":true},"jsonrpc":"2.0","id":7,"method":"tools/list"}`);
    case 5: {
      let nested: unknown = copy;
      for (let i = r.int(400); i > 0; i--) nested = { params: nested };
      return nested;
    }
    case 6:
      return { ...copy, params: { name: r.pick(['echo', 'nope', '\u001bx', '']), arguments: r.pick(VALUES) } };
    case 7:
      return { ...copy, id: r.pick(VALUES) };
    default:
      return copy;
  }
}

function mutateText(r: SeededRandom, text: string): Buffer {
  const bytes = Buffer.from(text);
  switch (r.int(6)) {
    case 0:
      return bytes.subarray(0, r.int(bytes.length));
    case 1: {
      const copy = Buffer.from(bytes);
      copy[r.int(copy.length)] = r.int(256);
      return copy;
    }
    case 2:
      return Buffer.concat([bytes.subarray(0, r.int(bytes.length)), Buffer.from([0xff, 0xfe]), bytes]);
    case 3:
      return Buffer.concat([Buffer.from('\ufeff'), bytes]);
    default:
      return bytes;
  }
}

interface FetchCase {
  kind: 'fetch';
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
}
interface RawCase {
  kind: 'raw';
  request: Buffer;
}

function body(r: SeededRandom): Buffer {
  return mutateText(r, JSON.stringify(mutateValue(r, r.pick(TEMPLATES))));
}

function fetchCase(r: SeededRandom): FetchCase {
  const headers: Record<string, string> = {
    'content-type': r.pick(CONTENT_TYPES),
    accept: r.pick(['application/json, text/event-stream', 'application/json', '*/*', 'text/html']),
  };
  const version = r.pick(VERSIONS);
  if (r.next() < 0.85) headers['mcp-protocol-version'] = version;
  const origin = r.pick(ORIGINS);
  if (origin) headers.origin = origin;
  if (r.next() < 0.2) headers.guid = r.pick(['g-1', 'x'.repeat(300), 'with space', '']);
  if (r.next() < 0.2) headers['x-request-id'] = r.pick(['r-1', 'é', '\u00ff'.repeat(10)]);
  if (r.next() < 0.1) headers['mcp-session-id'] = r.pick(['s', 'x'.repeat(500)]);
  if (r.next() < 0.3)
    headers['mcp-method'] = r.pick(['tools/call', 'tools/list', 'server/discover', 'subscriptions/listen', '', 'x'.repeat(300)]);
  if (r.next() < 0.2) headers['mcp-name'] = r.pick(['echo', '=?base64?ZWNobw==?=', '=?base64?!!?=', '=?base64?/w==?=', 'nope']);
  const method = r.pick(METHODS);
  return { kind: 'fetch', method, path: r.pick(PATHS), headers, ...(method !== 'GET' && method !== 'OPTIONS' && { body: body(r) }) };
}

function rawCase(r: SeededRandom): RawCase {
  const payload = body(r);
  const head = (lines: string[]) => Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1');
  const base = ['Host: 127.0.0.1', 'Content-Type: application/json', 'MCP-Protocol-Version: 2025-11-25', 'Connection: close'];
  switch (r.int(9)) {
    case 0: // a Content-Length that lies
      return {
        kind: 'raw',
        request: Buffer.concat([head(['POST /mcp HTTP/1.1', ...base, `Content-Length: ${payload.length + r.int(50) - 25}`]), payload]),
      };
    case 1: // a bad chunk size
      return {
        kind: 'raw',
        request: Buffer.concat([
          head(['POST /mcp HTTP/1.1', ...base, 'Transfer-Encoding: chunked']),
          Buffer.from(`zz\r\n${payload}\r\n0\r\n\r\n`),
        ]),
      };
    case 2: // a control character in a header value
      return {
        kind: 'raw',
        request: Buffer.concat([
          head(['POST /mcp HTTP/1.1', ...base, `Guid: a\u0001b\u007f`, `Content-Length: ${payload.length}`]),
          payload,
        ]),
      };
    case 3:
      return {
        kind: 'raw',
        request: Buffer.from(
          r.pick([
            'GARBAGE\r\n\r\n',
            'POST /mcp HTTP/9.9\r\n\r\n',
            'POST  /mcp HTTP/1.1\r\n\r\n',
            '\r\n\r\n',
            'POST /mcp\r\n\r\n',
            'OPTIONS * HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n',
          ]),
        ),
      };
    case 4: // many headers; now and then far too many
      return {
        kind: 'raw',
        request: head([
          'POST /mcp HTTP/1.1',
          ...base,
          ...Array.from({ length: r.next() < 0.02 ? 10_000 : 200 }, (_, i) => `X-H${i}: v`),
          'Content-Length: 0',
        ]),
      };
    case 5: // Expect: 100-continue for a body far over the limit, never sent
      return { kind: 'raw', request: head(['POST /mcp HTTP/1.1', ...base, 'Expect: 100-continue', 'Content-Length: 50000000']) };
    case 6:
      return { kind: 'raw', request: head(['POST /mcp HTTP/1.1', ...base, 'Expect: something-else', 'Content-Length: 0']) };
    case 7: // two Content-Lengths
      return {
        kind: 'raw',
        request: Buffer.concat([head(['POST /mcp HTTP/1.1', ...base, `Content-Length: ${payload.length}`, 'Content-Length: 3']), payload]),
      };
    default:
      return { kind: 'raw', request: Buffer.concat([head(['POST /mcp HTTP/1.1', ...base, `Content-Length: ${payload.length}`]), payload]) };
  }
}

const isJsonRpc = (value: unknown): boolean =>
  typeof value === 'object' &&
  value !== null &&
  (value as { jsonrpc?: unknown }).jsonrpc === '2.0' &&
  ('result' in value || 'error' in value);

/** A batch's answer: a non-empty array of JSON-RPC responses. */
const isJsonRpcBatch = (value: unknown): boolean => Array.isArray(value) && value.length > 0 && value.every(isJsonRpc);

/** Why one answer breaks the property, or undefined when it holds. */
function violation(status: number, body: Buffer): string | undefined {
  if (status >= 500) return `status ${status}`;
  if (status === 0) return 'no status line';
  if (body.length === 0) return status === 202 || status === 204 ? undefined : `status ${status} with an empty body`;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    return `status ${status} with a body that is not JSON: ${body.subarray(0, 80).toString('latin1')}`;
  }
  return isJsonRpc(parsed) || (status === 200 && isJsonRpcBatch(parsed))
    ? undefined
    : `status ${status} with a JSON body that is not JSON-RPC: ${body.subarray(0, 120).toString('utf8')}`;
}

describe(`HTTP fuzz against the built gateway (seed ${SEED}, ${REQUESTS} requests)`, () => {
  const running = useDocumentGateway(
    (service) => service.serve('/tool-manifest', { json: manifest }).serve('/tools/echo', { json: { data: 'echoed' } }),
    (serviceUrl) => gatewayConfigFile(serviceUrl, '  allowedOrigins: ["http://localhost:6274"]'),
    HEAP_PROBE_ENV,
  );

  it('answers every request below 500 with a JSON-RPC body, never hangs, stays alive, and gives its memory back', async () => {
    const { gateway, mcpUrl, managementUrl } = running();
    const origin = new URL(mcpUrl).origin;
    const r = seededRandom(SEED);
    const cases = Array.from({ length: REQUESTS }, () => (r.next() < 0.2 ? rawCase(r) : fetchCase(r)));
    // Besides the mutated ones: a valid batch at the version that has batches and at one that removed them.
    for (const version of ['2025-03-26', '2025-11-25']) {
      const batch = Buffer.from(JSON.stringify([TEMPLATES[1], TEMPLATES[3], TEMPLATES[4]]));
      for (let i = 0; i < 20; i++)
        cases.splice(r.int(cases.length), 0, {
          kind: 'fetch',
          method: 'POST',
          path: '/mcp',
          headers: { 'content-type': 'application/json', 'mcp-protocol-version': version },
          body: batch,
        });
    }
    const failures: string[] = [];
    const batches = { answered: 0, refused: 0 };

    const run = async (index: number): Promise<void> => {
      const one = cases[index];
      if (one.kind === 'raw') {
        const answer: RawExchange = await rawExchange(mcpUrl, one.request);
        if (answer.kind === 'hang') failures.push(`case ${index}: raw request hung`);
        else if (answer.kind === 'response') {
          const problem = violation(answer.status, answer.body);
          if (problem) failures.push(`case ${index} (raw ${JSON.stringify(one.request.subarray(0, 60).toString('latin1'))}): ${problem}`);
        }
        return;
      }
      try {
        const res = await fetch(`${origin}${one.path}`, {
          method: one.method,
          headers: one.headers,
          body: one.body,
          signal: AbortSignal.timeout(15_000),
        });
        if (res.status === 200 && res.headers.get('content-type') === 'text/event-stream') {
          // A notification stream (a 2025 GET, a 2026 listen) is open-ended by design; a listen's first event
          // (its acknowledgement) comes at once, a GET stream's only when the catalogue changes.
          const reader = (res.body as ReadableStream<Uint8Array>).getReader();
          const first = one.method === 'POST' ? await reader.read() : { value: undefined };
          await reader.cancel();
          if (one.method === 'POST' && !/^event: message\ndata: \{"jsonrpc":"2\.0"/.test(Buffer.from(first.value ?? []).toString('utf8'))) {
            failures.push(`case ${index} (${one.method} ${one.path}): a listen stream that does not open with a JSON-RPC event`);
          }
          return;
        }
        const answer = Buffer.from(await res.arrayBuffer());
        const problem = violation(res.status, answer);
        if (problem) failures.push(`case ${index} (${one.method} ${one.path}): ${problem}`);
        else if (answer[0] === 0x5b)
          batches.answered++; // "[": the answer to a batch
        else if (res.status === 400 && answer.includes('batches are not supported')) batches.refused++;
      } catch (error) {
        // (errors from fetch come from another realm than Jest's: no instanceof)
        const { name, message } = error as Error;
        failures.push(`case ${index} (${one.method} ${one.path}): ${name === 'TimeoutError' ? 'hung' : message}`);
      }
    };

    // Two phases with a probe after each, taken while no request is in flight.
    const runCases = async (from: number, to: number) => {
      let next = from;
      const worker = async () => {
        while (next < to && failures.length < 20) await run(next++);
      };
      await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    };
    await runCases(0, WARM_UP);
    const liveAfterWarmUp = await liveBytesAfterFullGc(gateway);
    await runCases(WARM_UP, cases.length);

    expect(failures).toEqual([]);
    // Each valid batch above: answered at 2025-03-26, refused at 2025-11-25 (mutated ones add to both).
    expect(batches.answered).toBeGreaterThanOrEqual(20);
    expect(batches.refused).toBeGreaterThanOrEqual(20);
    expect(gateway.child.exitCode).toBeNull();
    expect((await fetch(`${managementUrl}/actuator/health/liveness`)).status).toBe(200);
    // Its memory comes back: what is live after a full collection has not grown with the three quarters of
    // the requests since the warm-up.
    const liveAtEnd = await liveBytesAfterFullGc(gateway);
    expect(liveAtEnd - liveAfterWarmUp).toBeLessThanOrEqual(LEAK_ALLOWANCE_BYTES);
  }, 480_000); // 50,000 requests took 123 s alone in CI and timed out at 240 s with a second run beside it
});

/**
 * The other side (issue 32): whatever a tool service answers (replies nested to every depth up to 8 MB,
 * numbers JSON cannot carry, cut-off and oversized bodies, error statuses with deep bodies) and whatever
 * its manifest becomes between refreshes (50,000 tools, a tool nested 5,000 levels, over the byte limit,
 * not JSON), every call is answered with HTTP 200 and a result (`isError` or not), never a JSON-RPC
 * error or a 5xx, and the gateway stays alive. FUZZ_REPLIES sets the size of the run.
 */
const REPLIES = Number(process.env.FUZZ_REPLIES ?? 300);

const nested = (open: string, close: string, levels: number, inner = '1') => `${open.repeat(levels)}${inner}${close.repeat(levels)}`;
const SMALL_REPLIES: Array<[number, string]> = [
  [200, '{"data":"ok"}'],
  [200, `{"data":${nested('[', ']', 252)}}`], // 253 levels in all: within the limit (254)
  [200, `{"data":${nested('[', ']', 253)}}`], // 254: at it
  [200, `{"data":${nested('[', ']', 254)}}`], // 255: one over
  [200, `{"data":${nested('{"a":', '}', 3_000)}}`],
  [200, `{"data":{"big":1e309,"id":9007199254740993}}`],
  [200, `{"data":"${'[{'.repeat(5_000)}"}`], // brackets inside a string
  [200, `{"data":${nested('[', ']', 300)}`], // cut off and too deep
  [200, '{"data":[1,2'],
  [200, 'not json'],
  [500, `{"error":${nested('[', ']', 10_000)}}`],
  [404, ''],
  [200, `{"inputRequired":${nested('{"a":', '}', 1_000)}}`],
];
/** Streamed, not held: the deepest replies, and one just over the 8 MB reply limit. */
const STREAMED = ['deep-8mb', 'deep-500k', 'oversize'] as const;

describe(`tool service replies and manifests fuzz against the built gateway (seed ${SEED}, ${REPLIES} calls)`, () => {
  let service: Server;
  let gateway: ServerProcess & { match: RegExpExecArray };
  const r = seededRandom(SEED);
  let manifestFetches = 0;
  const MANIFESTS = [
    JSON.stringify(manifest),
    HUGE_MANIFEST,
    HOSTILE_MANIFEST,
    `{"tools":[],"pad":"${'x'.repeat(9 * 1_048_576)}"}`,
    '{"tools":[',
  ];

  beforeAll(async () => {
    service = createServer((req, res) => {
      req.resume().once('end', () => {
        if (req.url === '/tool-manifest') {
          // Mostly the good manifest, so that `echo` stays in the catalogue; hostile ones in between.
          const document = manifestFetches++ === 0 || r.next() < 0.5 ? MANIFESTS[0] : r.pick(MANIFESTS);
          return void res.writeHead(200, { 'content-type': 'application/json' }).end(document);
        }
        const pick = r.int(SMALL_REPLIES.length + STREAMED.length);
        if (pick < SMALL_REPLIES.length) {
          const [status, text] = SMALL_REPLIES[pick];
          return void res.writeHead(status, { 'content-type': 'application/json' }).end(text);
        }
        const streamed = STREAMED[pick - SMALL_REPLIES.length];
        if (streamed === 'oversize')
          return void res.writeHead(200, { 'content-type': 'application/json' }).end(`{"data":"${'x'.repeat(8 * 1_048_576)}"}`);
        writeDeepReply(res, streamed === 'deep-8mb' ? DEEP_REPLY_LEVELS : 250_000);
      });
    });
    await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(service.address() as AddressInfo).port}`;
    gateway = await spawnGateway(gatewayConfigFile(url, '  catalogue: { refreshTtlMillis: 300, manifestTimeoutMillis: 30000 }'));
  });
  afterAll(async () => {
    await gateway?.stop();
    service?.closeAllConnections();
    await new Promise((resolve) => service?.close(resolve));
  });

  it('answers every call with a result, never a JSON-RPC error or a 5xx, and stays alive', async () => {
    const [, mcpUrl, managementUrl] = gateway.match;
    const failures: string[] = [];
    let next = 0;
    const worker = async () => {
      while (next < REPLIES && failures.length < 20) {
        const index = next++;
        const res = await fetch(mcpUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'mcp-protocol-version': '2025-11-25' },
          body: JSON.stringify({ jsonrpc: '2.0', id: index, method: 'tools/call', params: { name: 'echo', arguments: { text: 'hi' } } }),
          signal: AbortSignal.timeout(60_000),
        });
        const answer = (await res.json()) as { result?: { isError?: boolean }; error?: { code: number; message: string } };
        // A refused manifest leaves the route's last good one, so `echo` stays; were it gone, -32001 would say so.
        const unknownTool = answer.error?.code === -32001;
        if (res.status !== 200 && !unknownTool) failures.push(`call ${index}: HTTP ${res.status} ${JSON.stringify(answer).slice(0, 200)}`);
        else if (!unknownTool && typeof answer.result?.isError !== 'boolean')
          failures.push(`call ${index}: not a result: ${JSON.stringify(answer).slice(0, 200)}`);
      }
    };
    await Promise.all(Array.from({ length: 8 }, worker));

    expect(failures).toEqual([]);
    expect(gateway.child.exitCode).toBeNull();
    expect((await fetch(`${managementUrl}/actuator/health/liveness`)).status).toBe(200);
  }, 300_000);
});
