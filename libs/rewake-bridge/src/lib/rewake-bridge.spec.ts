import { NotificationFanout, type ServerNotification } from '@toolmesh/protocol';

import { ExternalEventResolver } from './external-event-resolver';
import { NotificationMapper } from './notification-mapper';
import { McpNotificationToRewakeBridge } from './rewake-bridge';

const notification = (method: string, params: Record<string, unknown>): ServerNotification => ({
  server: 'jobs',
  notification: { jsonrpc: '2.0', method, params },
  receivedAt: new Date('2026-11-30T10:00:00.000Z'),
});

describe('McpNotificationToRewakeBridge', () => {
  it('maps what a notification source fans out and publishes numbered events; unmapped notifications publish nothing', async () => {
    const fanout = new NotificationFanout(() => undefined);
    const resolver = new ExternalEventResolver();
    const bridge = new McpNotificationToRewakeBridge(new NotificationMapper(), resolver, () => undefined);
    const detach = bridge.attach(fanout);

    fanout.publish(notification('notifications/tools/list_changed', {}));
    fanout.publish(notification('notifications/resources/updated', { uri: 'file:///a' }));
    fanout.publish(notification('notifications/message', { level: 'info', data: 'hi' }));
    detach();
    fanout.publish(notification('notifications/message', { level: 'info', data: 'after detach' }));

    expect(resolver.pending).toBe(2);
    expect(await resolver.waitFor({}, 0)).toMatchObject({
      kind: 'event',
      event: { id: 'evt-1', type: 'resource.updated', summary: { uri: 'file:///a' } },
    });
    expect(await resolver.waitFor({}, 0)).toMatchObject({ kind: 'event', event: { id: 'evt-2', type: 'log', summary: { data: 'hi' } } });
    expect(fanout.listenerCount).toBe(0);
  });

  it('reports a mapping that throws and never breaks the fan-out: other listeners and later notifications go on', () => {
    const fanoutFailures: unknown[] = [];
    const fanout = new NotificationFanout((error) => fanoutFailures.push(error));
    const resolver = new ExternalEventResolver();
    const reported: Array<[string, string]> = [];
    let calls = 0;
    const flaky = {
      map: (n: ServerNotification) => {
        if (++calls === 1) throw new Error('rule bug');
        return new NotificationMapper().map(n);
      },
    };
    const bridge = new McpNotificationToRewakeBridge(flaky, resolver, (error, n) =>
      reported.push([(error as Error).message, n.notification.method]),
    );
    bridge.attach(fanout);
    const seenByOthers: string[] = [];
    fanout.addNotificationListener((n) => seenByOthers.push(n.notification.method));

    fanout.publish(notification('notifications/message', { level: 'info' }));
    fanout.publish(notification('notifications/resources/updated', { uri: 'file:///b' }));

    expect(reported).toEqual([['rule bug', 'notifications/message']]);
    expect(fanoutFailures).toEqual([]);
    expect(seenByOthers).toEqual(['notifications/message', 'notifications/resources/updated']);
    expect(resolver.pending).toBe(1);
  });
});
