import { NotificationFanout } from './notification-fanout';
import type { ServerNotification } from './notification-listener';

const event = (method: string): ServerNotification => ({
  server: 'everything',
  notification: { jsonrpc: '2.0', method, params: { level: 'info' } },
  receivedAt: new Date(0),
});

describe('NotificationFanout', () => {
  it('delivers every notification to every listener in registration order', () => {
    const fanout = new NotificationFanout(() => undefined);
    const seen: string[] = [];
    fanout.addNotificationListener((e) => seen.push(`a:${e.notification.method}`));
    fanout.addNotificationListener((e) => seen.push(`b:${e.notification.method}`));

    fanout.publish(event('notifications/message'));
    fanout.publish(event('notifications/resources/updated'));

    expect(seen).toEqual([
      'a:notifications/message',
      'b:notifications/message',
      'a:notifications/resources/updated',
      'b:notifications/resources/updated',
    ]);
  });

  it('reports a throwing listener and still reaches the others', () => {
    const failures: unknown[] = [];
    const fanout = new NotificationFanout((error) => failures.push(error));
    const received: ServerNotification[] = [];
    fanout.addNotificationListener(() => {
      throw new Error('listener bug');
    });
    fanout.addNotificationListener((e) => received.push(e));

    fanout.publish(event('notifications/message'));

    expect(received).toHaveLength(1);
    expect(failures).toEqual([new Error('listener bug')]);
  });

  it('stops delivering after unsubscribe, also when unsubscribing during a delivery', () => {
    const fanout = new NotificationFanout(() => undefined);
    let calls = 0;
    const unsubscribe = fanout.addNotificationListener(() => {
      calls += 1;
      unsubscribe();
    });

    fanout.publish(event('notifications/message'));
    fanout.publish(event('notifications/message'));

    expect(calls).toBe(1);
    expect(fanout.listenerCount).toBe(0);
  });

  it('treats the same function registered twice as two registrations', () => {
    const fanout = new NotificationFanout(() => undefined);
    let calls = 0;
    const listener = () => {
      calls += 1;
    };
    const first = fanout.addNotificationListener(listener);
    fanout.addNotificationListener(listener);
    first();

    fanout.publish(event('notifications/message'));

    expect(calls).toBe(1);
  });
});
