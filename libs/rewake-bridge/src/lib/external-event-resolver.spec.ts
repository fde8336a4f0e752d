import { getEventListeners } from 'node:events';

import type { ExternalEvent } from './external-event';
import { ExternalEventResolver, MAX_WAIT_MS } from './external-event-resolver';
import { RewakeErrorCode } from './rewake-errors';

let sequence = 0;
const event = (fields: Partial<ExternalEvent> = {}): ExternalEvent => ({
  id: `evt-${++sequence}`,
  server: 'jobs',
  type: 'resource.updated',
  method: 'notifications/resources/updated',
  summary: { uri: 'file:///reports/a.csv' },
  receivedAt: '2026-11-30T10:00:00.000Z',
  ...fields,
});

describe('ExternalEventResolver', () => {
  afterEach(() => jest.useRealTimers());

  it('wakes a waiter with the first event its filter matches, and leaves others buffered', async () => {
    const resolver = new ExternalEventResolver();
    const waiting = resolver.waitFor({ server: 'jobs', type: 'log' }, 60_000);
    const other = event();
    const wanted = event({ type: 'log', method: 'notifications/message', summary: { level: 'info' } });
    resolver.publish(other);
    resolver.publish(wanted);

    expect(await waiting).toEqual({ kind: 'event', event: wanted });
    expect(resolver.waiting).toBe(0);
    expect(resolver.pending).toBe(1);
    expect(await resolver.waitFor({}, 0)).toEqual({ kind: 'event', event: other });
  });

  it('delivers an event published before the wait (between two model turns), oldest matching first', async () => {
    const resolver = new ExternalEventResolver();
    const first = event({ summary: { uri: 'file:///reports/1' } });
    const second = event({ summary: { uri: 'file:///reports/2' } });
    resolver.publish(event({ summary: { uri: 'file:///tmp/x' } }));
    resolver.publish(first);
    resolver.publish(second);

    expect(await resolver.waitFor({ uriPrefix: 'file:///reports/' }, 0)).toEqual({ kind: 'event', event: first });
    expect(await resolver.waitFor({ uriPrefix: 'file:///reports/' }, 0)).toEqual({ kind: 'event', event: second });
    expect(resolver.pending).toBe(1);
  });

  it('matches every filter field, and uriPrefix only events that have a uri', async () => {
    const resolver = new ExternalEventResolver();
    resolver.publish(event({ type: 'log', summary: {} }));
    for (const filter of [{ server: 'other' }, { type: 'job' }, { method: 'x' }, { uriPrefix: '' }])
      expect(await resolver.waitFor(filter, 0)).toEqual({ kind: 'timeout', timeoutMs: 0 });
    expect((await resolver.waitFor({ server: 'jobs', type: 'log', method: 'notifications/resources/updated' }, 0)).kind).toBe('event');
  });

  it('gives one event to every waiter it matches; it is not buffered then', async () => {
    const resolver = new ExternalEventResolver();
    const a = resolver.waitFor({}, 60_000);
    const b = resolver.waitFor({ server: 'jobs' }, 60_000);
    const c = resolver.waitFor({ server: 'other' }, 60_000);
    const published = event();
    resolver.publish(published);

    expect(await a).toEqual({ kind: 'event', event: published });
    expect(await b).toEqual({ kind: 'event', event: published });
    expect(resolver.pending).toBe(0);
    expect(resolver.waiting).toBe(1);
    resolver.close();
    expect(await c).toEqual({ kind: 'closed' });
  });

  it('keeps at most bufferSize undelivered events, dropping (and counting) the oldest', async () => {
    const overflows: number[] = [];
    const resolver = new ExternalEventResolver(3, (droppedSoFar) => overflows.push(droppedSoFar));
    const events = Array.from({ length: 5 }, () => event());
    events.forEach((e) => resolver.publish(e));

    expect(resolver.pending).toBe(3);
    expect(resolver.dropped).toBe(2);
    expect(overflows).toEqual([1, 2]);
    expect(await resolver.waitFor({}, 0)).toEqual({ kind: 'event', event: events[2] });
  });

  it('times out with a timeout outcome and leaves no timer or listener behind', async () => {
    jest.useFakeTimers();
    const resolver = new ExternalEventResolver();
    const controller = new AbortController();
    const waiting = resolver.waitFor({}, 5000, controller.signal);
    expect(jest.getTimerCount()).toBe(1);

    jest.advanceTimersByTime(5000);

    expect(await waiting).toEqual({ kind: 'timeout', timeoutMs: 5000 });
    expect(jest.getTimerCount()).toBe(0);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    expect(resolver.waiting).toBe(0);
  });

  it('ends a wait on abort, cleanly, and answers an already aborted signal at once', async () => {
    jest.useFakeTimers();
    const resolver = new ExternalEventResolver();
    const controller = new AbortController();
    const waiting = resolver.waitFor({}, 60_000, controller.signal);

    controller.abort();

    expect(await waiting).toEqual({ kind: 'aborted' });
    expect(jest.getTimerCount()).toBe(0);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    expect(resolver.waiting).toBe(0);
    expect(await resolver.waitFor({}, 60_000, controller.signal)).toEqual({ kind: 'aborted' });
    // An event after the abort is kept for the next wait, not lost to the aborted one.
    resolver.publish(event());
    expect(resolver.pending).toBe(1);
  });

  it('clears the timer and abort listener of a wait that an event ended', async () => {
    jest.useFakeTimers();
    const resolver = new ExternalEventResolver();
    const controller = new AbortController();
    const waiting = resolver.waitFor({}, 60_000, controller.signal);
    resolver.publish(event());

    expect((await waiting).kind).toBe('event');
    expect(jest.getTimerCount()).toBe(0);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it('waits without a timer when no timeout is given, until close; closed waits and publishes end at once', async () => {
    jest.useFakeTimers();
    const resolver = new ExternalEventResolver();
    const waiting = resolver.waitFor({});
    expect(jest.getTimerCount()).toBe(0);

    resolver.close();

    expect(await waiting).toEqual({ kind: 'closed' });
    resolver.publish(event());
    expect(resolver.pending).toBe(0);
    expect(await resolver.waitFor({}, 1000)).toEqual({ kind: 'closed' });
  });

  it.each([-1, 1.5, MAX_WAIT_MS + 1, Number.NaN])('refuses a timeout of %p', async (timeoutMs) => {
    await expect(new ExternalEventResolver().waitFor({}, timeoutMs)).rejects.toMatchObject({ code: RewakeErrorCode.InvalidTimeout });
  });

  it.each([0, -3, 2.5])('refuses a buffer size of %p', (size) => {
    expect(() => new ExternalEventResolver(size)).toThrow(expect.objectContaining({ code: RewakeErrorCode.InvalidBufferSize }));
  });
});
