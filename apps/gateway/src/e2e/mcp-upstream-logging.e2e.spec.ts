import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Transport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type LoggingLevel, LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { spawnGateway, writeGatewayConfig } from '@toolmesh/test-peers/gateway-process';
import { CONFORMANCE_FEATURES_SCRIPT, type HttpPeer, startHttpPeer } from '@toolmesh/test-peers/peers/http-peer';
import type { ServerProcess } from '@toolmesh/test-peers/server-process';

/**
 * Logging across the hop (issue 44), built gateways in front of the conformance features peer, whose
 * `test_tool_with_logging` logs three `info` messages while it runs (at the level its caller asked: a
 * 2025 session's, a 2026-07-28 request's `_meta`; every one to a 2025 session that set none). `legacy`
 * federates the peer pinned to 2025 (a 2025 server, whose level is the gateway's connection's); `modern`
 * federates it at 2026-07-28, and `front` federates `legacy` at 2026-07-28 (a gateway as the server). Each caller, the v1 SDK client at 2025 (its session's
 * `logging/setLevel`) and a 2026-07-28 caller (`_meta` `io.modelcontextprotocol/logLevel`), gets the
 * messages on its call's stream at the level it asked, and none above it.
 */
const TOOL = 'test_tool_with_logging';
const LOGGED = ['Tool execution started', 'Tool processing data', 'Tool execution completed'].map((data) => ({ level: 'info', data }));
const DONE = 'Logging test completed';
const MODERN = '2026-07-28';

interface Told {
  readonly told: unknown[];
  readonly text: string;
}

const textOf = (result: { content?: unknown }) => (result.content as Array<{ text?: string }>).map((block) => block.text ?? '').join('');

/** A 2025 session that sets `level` (none: never asks), then calls the tool. */
async function legacyCall(url: string, level: LoggingLevel | undefined): Promise<Told> {
  const client = new V1Client({ name: 'logging-test-v1', version: '1.0.0' });
  const told: unknown[] = [];
  client.setNotificationHandler(LoggingMessageNotificationSchema, ({ params }) => void told.push(params));
  await client.connect(new V1Transport(new URL(url)));
  try {
    if (level !== undefined) await client.setLoggingLevel(level);
    const result = await client.callTool({ name: TOOL, arguments: {} });
    return { told, text: textOf(result as { content?: unknown }) };
  } finally {
    await client.close();
  }
}

/** A 2026-07-28 call naming `level` in its `_meta` (none: names none), read whole: its event stream or its JSON. */
async function modernCall(url: string, level: LoggingLevel | undefined): Promise<Told> {
  const meta = {
    'io.modelcontextprotocol/protocolVersion': MODERN,
    'io.modelcontextprotocol/clientCapabilities': {},
    ...(level !== undefined && { 'io.modelcontextprotocol/logLevel': level }),
  };
  const res = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': MODERN,
      'mcp-method': 'tools/call',
      'mcp-name': TOOL,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: TOOL, arguments: {}, _meta: meta } }),
  });
  const body = await res.text();
  const messages = res.headers.get('content-type')?.startsWith('text/event-stream')
    ? body
        .split('\n')
        .filter((line) => line.startsWith('data: '))
        .map((line) => JSON.parse(line.slice(6)) as Record<string, unknown>)
    : [JSON.parse(body) as Record<string, unknown>];
  const told = messages.filter((message) => message.method === 'notifications/message').map((message) => message.params);
  const response = messages.find((message) => message.id === 1) as { result: { content?: unknown } };
  return { told, text: textOf(response.result) };
}

async function capabilities(url: string, era: '2025' | typeof MODERN): Promise<Record<string, unknown>> {
  const [method, params, headers] =
    era === MODERN
      ? [
          'server/discover',
          { _meta: { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientCapabilities': {} } },
          { 'mcp-protocol-version': MODERN, 'mcp-method': 'server/discover' },
        ]
      : ['initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } }, {}];
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return ((await res.json()) as { result: { capabilities: Record<string, unknown> } }).result.capabilities;
}

describe('logging across the hop (issue 44)', () => {
  let peer: HttpPeer;
  let legacy: ServerProcess & { match: RegExpExecArray };
  let modern: ServerProcess & { match: RegExpExecArray };
  let front: ServerProcess & { match: RegExpExecArray };

  beforeAll(async () => {
    peer = await startHttpPeer([], CONFORMANCE_FEATURES_SCRIPT);
    const bundle = (era: string) =>
      writeGatewayConfig(
        `server: { port: 0, managementPort: 0 }
mcp:
  shutdownDrainMillis: 1000
  bundles:
    - { name: next, mcpServer: { url: "\${NEXT_URL}", era: "${era}" } }
`,
      );
    [legacy, modern] = await Promise.all([
      spawnGateway(bundle('2025'), { NEXT_URL: peer.url }),
      spawnGateway(bundle(MODERN), { NEXT_URL: peer.url }),
    ]);
    front = await spawnGateway(bundle(MODERN), { NEXT_URL: legacy.match[1] });
  }, 120_000);

  afterAll(async () => {
    await front?.stop();
    await modern?.stop();
    await legacy?.stop();
    await peer?.stop();
  });

  it('declares logging in both eras, and takes only the revision levels in logging/setLevel', async () => {
    expect(await capabilities(legacy.match[1], '2025')).toHaveProperty('logging', {});
    expect(await capabilities(legacy.match[1], MODERN)).toHaveProperty('logging', {});
    const setLevel = (level: unknown) =>
      fetch(legacy.match[1], {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'logging/setLevel', params: { level } }),
      }).then((res) => res.json());
    expect(await setLevel('warning')).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
    for (const level of ['loud', 'WARNING', 3, undefined]) expect(await setLevel(level)).toMatchObject({ error: { code: -32602 } });
  });

  for (const [upstream, url] of [
    ['a 2025 server', () => legacy.match[1]],
    ['a 2026-07-28 server', () => modern.match[1]],
    ['a 2026-07-28 gateway', () => front.match[1]],
  ] as const) {
    it(`brings a 2025 session the log messages of ${upstream} at the level it set, and none below it`, async () => {
      expect(await legacyCall(url(), 'info')).toEqual({ told: LOGGED, text: DONE });
      expect(await legacyCall(url(), 'debug')).toEqual({ told: LOGGED, text: DONE });
      expect(await legacyCall(url(), 'warning')).toEqual({ told: [], text: DONE });
    });

    it(`brings a 2026-07-28 call the log messages of ${upstream} at its _meta level, and none without one`, async () => {
      expect(await modernCall(url(), 'info')).toEqual({ told: LOGGED, text: DONE });
      expect(await modernCall(url(), 'warning')).toEqual({ told: [], text: DONE });
      expect(await modernCall(url(), undefined)).toEqual({ told: [], text: DONE });
    });
  }

  it('brings a 2025 session that set no level every message of a 2025 server, and none of a 2026-07-28 one, which sends none unasked', async () => {
    expect(await legacyCall(legacy.match[1], undefined)).toEqual({ told: LOGGED, text: DONE });
    expect(await legacyCall(modern.match[1], undefined)).toEqual({ told: [], text: DONE });
  });
});
