import { gatewayConfigFile, spawnGateway } from '@toolmesh/test-peers/gateway-process';
import { startRedis, type TestRedis } from '@toolmesh/test-peers/redis-server';
import { type SampleToolService, startSampleToolService } from '@toolmesh/test-peers/sample-tool-service';
import type { ServerProcess } from '@toolmesh/test-peers/server-process';

import {
  callAddedTool,
  changeManifest as changeManifestAt,
  isListChanged,
  openListen as openListenAt,
  openStream,
} from '../test-support/notification-streams';

type Gateway = ServerProcess & { match: RegExpExecArray };

const openLegacyStream = (gateway: Gateway) =>
  openStream(gateway.match[1], { headers: { accept: 'text/event-stream', 'mcp-protocol-version': '2025-11-25' } });

const openListen = (gateway: Gateway, id: string | number) => openListenAt(gateway.match[1], id);

const changeManifest = (tools: SampleToolService) => changeManifestAt(tools.url);

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
      const config = gatewayConfigFile(
        tools.url,
        `  catalogue: { refreshTtlMillis: 120000, forcedRefreshCooldownMillis: 0 }\n  redis: { url: "${redis.url}" }`,
      );
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
      expect(await callAddedTool(refreshing.match[1])).toMatchObject({ result: { content: [{ text: 'added' }], isError: false } });

      expect(await legacy.next(isListChanged)).toEqual({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
      expect(await modern.next(isListChanged)).toEqual({
        jsonrpc: '2.0',
        method: 'notifications/tools/list_changed',
        params: { _meta: { 'io.modelcontextprotocol/subscriptionId': 'L1' } },
      });
      legacy.close();
      modern.close();
      await changeManifest(tools); // back to the tool list the other tests expect
    });

    it('ends a listen with its result when the replica shuts down', async () => {
      const modern = await openListen(refreshing, 'L2');
      await modern.next(() => true);
      refreshing.child.kill('SIGTERM');
      expect(await modern.next((message) => 'result' in message)).toEqual({
        jsonrpc: '2.0',
        id: 'L2',
        result: {
          resultType: 'complete',
          _meta: {
            'io.modelcontextprotocol/serverInfo': expect.objectContaining({ name: 'toolmesh-gateway' }),
            'io.modelcontextprotocol/subscriptionId': 'L2',
          },
        },
      });
    });
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
    });
  });

  describe('a refresh requested on the management port, with the catalogue TTL at an hour', () => {
    let gateway: Gateway;
    beforeAll(async () => {
      // No poll, no request and no other replica can explain a notification: only the requested refresh.
      gateway = await spawnGateway(
        gatewayConfigFile(tools.url, '  catalogue: { refreshTtlMillis: 3600000, requestedRefreshIntervalMillis: 600000 }'),
      );
    });
    afterAll(() => gateway?.stop());

    const requestRefresh = () => fetch(`${gateway.match[2]}/actuator/toolBundles/sample/refresh`, { method: 'POST' });
    /** Far below the hour a poll would take, and generous for a loaded machine. */
    const soon = <T>(promise: Promise<T>) =>
      Promise.race([
        promise,
        new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no list_changed 30 s after the refresh')), 30_000).unref()),
      ]);

    it('reaches a 2025 GET stream and a 2026 listen as list_changed once the tool service asks, and bounds repeated asks with 429', async () => {
      const legacy = await openLegacyStream(gateway);
      const modern = await openListen(gateway, 'R1');
      await modern.next((message) => message.method === 'notifications/subscriptions/acknowledged');
      await changeManifest(tools);

      const refreshed = await requestRefresh();
      expect(refreshed.status).toBe(200);
      expect(await refreshed.json()).toMatchObject({ bundle: 'sample', source: 'remote', lastError: null });
      expect(await soon(legacy.next(isListChanged))).toEqual({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
      expect(await soon(modern.next(isListChanged))).toMatchObject({
        method: 'notifications/tools/list_changed',
        params: { _meta: { 'io.modelcontextprotocol/subscriptionId': 'R1' } },
      });

      const again = await requestRefresh();
      expect([again.status, Number(again.headers.get('retry-after'))]).toEqual([429, expect.any(Number)]);
      expect(Number(again.headers.get('retry-after'))).toBeGreaterThan(0);
      legacy.close();
      modern.close();
      await changeManifest(tools);
    });
  });
});
