import { RedisChangeChannel } from '@toolmesh/registry';
import { startRedis, type TestRedis } from '@toolmesh/test-peers/redis-server';
import type { EventStream } from '@toolmesh/transport-http/server';

import { ChangeListeners } from './change-listeners';
import { connectElicitationCompletions, subjectDigest } from './elicitation-completions';

const LIMITS = { maxOpenStreams: 10, maxStreamsPerClient: 10, maxStreamLifetimeMillis: 60_000 };
const quiet = { info: () => undefined, warn: () => undefined };

/** A 2025 stream of `subject` on a replica's listeners: what it was sent. */
function openStream(listeners: ChangeListeners, subject: string | undefined): string[] {
  const sent: string[] = [];
  const stream = { send: (json: string) => sent.push(json), end: () => undefined, open: true, onClose: () => undefined } as EventStream;
  listeners.add(
    {
      toolsListChanged: () => undefined,
      resourcesListChanged: () => undefined,
      close: () => undefined,
      ...(subject !== undefined && { elicitations: { subjectDigest: subjectDigest(subject), completed: (id: string) => sent.push(id) } }),
    },
    stream,
    'client',
  );
  return sent;
}

describe("an elicitation's completion reaches its subject's 2025 streams on every replica (issue 48)", () => {
  let redis: TestRedis;
  const channels: RedisChangeChannel[] = [];
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await Promise.all(channels.map((channel) => channel.close()));
    await redis.kill();
  });

  it("tells the subject's streams on this replica and the other one, and no other subject's", async () => {
    const replica = () => {
      const channel = new RedisChangeChannel({ url: redis.url, keyPrefix: 'completions-spec', commandTimeoutMillis: 2_000, log: quiet });
      channels.push(channel);
      const listeners = new ChangeListeners(LIMITS);
      return { listeners, completed: connectElicitationCompletions([listeners], channel) };
    };
    const a = replica();
    const b = replica();
    const aliceOnA = openStream(a.listeners, 'alice');
    const aliceOnB = openStream(b.listeners, 'alice');
    const bobOnB = openStream(b.listeners, 'bob');
    const anonymousOnB = openStream(b.listeners, undefined);
    // Subscribed once the other replica hears a message: publish until it does (Redis drops what no one hears).
    for (let round = 0; aliceOnB.length === 0 && round < 100; round += 1) {
      a.completed('alice', 'calendar', `e-${round}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(aliceOnB.length).toBeGreaterThan(0);
    expect(aliceOnA).toContain(aliceOnB[0]);
    expect(bobOnB).toEqual([]);
    expect(anonymousOnB).toEqual([]);
  });
});
