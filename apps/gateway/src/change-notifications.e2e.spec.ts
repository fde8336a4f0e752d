import { SseParser } from '@toolmesh/transport-http/client';
import { gatewayConfigFile, spawnGateway } from '../../../tools/test/gateway-process';
import { startRedis, type TestRedis } from '../../../tools/test/redis-server';
import { startSampleToolService, type SampleToolService } from '../../../tools/test/sample-tool-service';
import type { ServerProcess } from '../../../tools/test/server-process';

type Gateway = ServerProcess & { match: RegExpExecArray };

const MODERN_META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
const modernHeaders = (method: string, name?: string) => ({
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2026-07-28',
  'mcp-method': method,
  ...(name !== undefined && { 'mcp-name': name }),
});

/** An open notification stream: every JSON-RPC message it has carried so far, and a way to wait for one. */
interface OpenStream {
  readonly messages: Array<Record<string, unknown>>;
  next(matching: (message: Record<string, unknown>) => boolean): Promise<Record<string, unknown>>;
  close(): void;
}

async function openStream(url: string, init: RequestInit): Promise<OpenStream> {
  const abort = new AbortController();
  const res = await fetch(url, { ...init, signal: abort.signal });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('text/event-stream');
  const messages: Array<Record<string, unknown>> = [];
  const waiters: Array<() => void> = [];
  const parser = new SseParser(1 << 20);
  void (async () => {
    const decoder = new TextDecoder();
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        for (const event of parser.push(decoder.decode(chunk, { stream: true }))) {
          if (event.kind === 'event' && event.event.data.length > 0) messages.push(JSON.parse(event.event.data) as Record<string, unknown>);
        }
        for (const wake of waiters.splice(0)) wake();
      }
    } catch {
      // closed by the test
    }
  })();
  return {
    messages,
    next: async (matching) => {
      for (;;) {
        const found = messages.find(matching);
        if (found) return found;
        await new Promise<void>((resolve) => waiters.push(resolve));
      }
    },
    close: () => abort.abort(),
  };
}

const isListChanged = (message: Record<string, unknown>) => message.method === 'notifications/tools/list_changed';

const openLegacyStream = (gateway: Gateway) =>
  openStream(gateway.match[1], { headers: { accept: 'text/event-stream', 'mcp-protocol-version': '2025-11-25' } });

const openListen = (gateway: Gateway, id: string | number) =>
  openStream(gateway.match[1], {
    method: 'POST',
    headers: modernHeaders('subscriptions/listen'),
    body: JSON.stringify({ jsonrpc: '2.0', id, method: 'subscriptions/listen', params: { notifications: { toolsListChanged: true, promptsListChanged: true }, _meta: MODERN_META } }),
  });

/** The sample service's own trigger, called directly: the manifest changes and no gateway is told. */
const changeManifest = (tools: SampleToolService) => fetch(`${tools.url}/tools/test_trigger_tool_change`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });

describe('notifications/tools/list_changed on open streams of both eras', () => {
  let tools: SampleToolService;
  beforeAll(async () => {
    tools = await startSampleToolService();
  });
  afterAll(() => tools?.stop());

  describe('two gateway processes sharing a real Redis', () => {
    let redis: TestRedis;
    let listening: Gateway;
    let refreshing: Gateway;
    beforeAll(async () => {
      redis = await startRedis();
      // A TTL far above the wait below: only the change published by the other replica can explain a notification in time.
      const config = gatewayConfigFile(tools.url, `  catalogue: { refreshTtlMillis: 120000, forcedRefreshCooldownMillis: 0 }\n  redis: { url: "${redis.url}" }`);
      [listening, refreshing] = await Promise.all([spawnGateway(config), spawnGateway(config)]);
    });
    afterAll(async () => {
      await Promise.all([listening?.stop(), refreshing?.stop()]);
      await redis?.kill();
    });

    it('reach a 2025 GET stream and a 2026 listen on one replica when the other replica sees the change', async () => {
      const legacy = await openLegacyStream(listening);
      const modern = await openListen(listening, 'L1');
      // The acknowledgement comes first and names what is honoured: tools only, no prompts.
      expect(modern.messages[0] ?? (await modern.next(() => true))).toEqual({
        jsonrpc: '2.0',
        method: 'notifications/subscriptions/acknowledged',
        params: { _meta: { 'io.modelcontextprotocol/subscriptionId': 'L1' }, notifications: { toolsListChanged: true } },
      });

      await changeManifest(tools);
      // The other replica's refresh sees it: a call of the tool that just appeared is unknown there, which forces one.
      const call = await fetch(refreshing.match[1], {
        method: 'POST',
        headers: modernHeaders('tools/call', 'test_added_tool'),
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'test_added_tool', arguments: {}, _meta: MODERN_META } }),
      });
      expect(await call.json()).toMatchObject({ result: { content: [{ text: 'added' }], isError: false } });

      expect(await legacy.next(isListChanged)).toEqual({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
      expect(await modern.next(isListChanged)).toEqual({
        jsonrpc: '2.0',
        method: 'notifications/tools/list_changed',
        params: { _meta: { 'io.modelcontextprotocol/subscriptionId': 'L1' } },
      });
      legacy.close();
      modern.close();
      await changeManifest(tools); // back to the tool list the other tests expect
    }, 60_000);

    it('ends a listen with its result when the replica shuts down', async () => {
      const modern = await openListen(refreshing, 'L2');
      await modern.next(() => true);
      refreshing.child.kill('SIGTERM');
      expect(await modern.next((message) => 'result' in message)).toEqual({
        jsonrpc: '2.0',
        id: 'L2',
        result: { resultType: 'complete', _meta: { 'io.modelcontextprotocol/serverInfo': expect.objectContaining({ name: 'toolmesh-gateway' }), 'io.modelcontextprotocol/subscriptionId': 'L2' } },
      });
    }, 60_000);
  });

  describe('one gateway process without Redis', () => {
    let gateway: Gateway;
    beforeAll(async () => {
      gateway = await spawnGateway(gatewayConfigFile(tools.url, '  catalogue: { refreshTtlMillis: 1000 }'));
    });
    afterAll(() => gateway?.stop());

    it('reach the open streams from its own refresh every TTL, though no request arrives', async () => {
      const legacy = await openLegacyStream(gateway);
      const modern = await openListen(gateway, 7);
      await changeManifest(tools);
      expect(await legacy.next(isListChanged)).toEqual({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
      expect(await modern.next(isListChanged)).toMatchObject({ params: { _meta: { 'io.modelcontextprotocol/subscriptionId': 7 } } });
      legacy.close();
      modern.close();
      await changeManifest(tools);
    }, 60_000);
  });
});
