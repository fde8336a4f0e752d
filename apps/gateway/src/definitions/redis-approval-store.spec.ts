import { connectKeyValueStore } from '@toolmesh/registry';
import { startRedis, type TestRedis } from '@toolmesh/test-peers/redis-server';

import { GatewayErrorCode } from '../errors/gateway-errors';
import { RedisApprovalStore } from './redis-approval-store';

const HASH = `sha256:${'1'.repeat(64)}`;
const OTHER = `sha256:${'2'.repeat(64)}`;
const connect = (redis: TestRedis) => connectKeyValueStore({ url: redis.url, connectTimeoutMillis: 1_000, commandTimeoutMillis: 500 });

describe('approvals of pinned definitions in Redis (a real redis-server)', () => {
  let redis: TestRedis;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await redis?.kill();
  });

  it('shares a replica approval with another, and keeps the first sighting of a tool', async () => {
    const one = new RedisApprovalStore(connect(redis), 'shared');
    const two = new RedisApprovalStore(connect(redis), 'shared');
    try {
      const definition = { name: 'lookup', description: 'Looks up' };
      expect(await one.write('held', 'lookup', { hash: HASH, definition }, true)).toEqual({ hash: HASH, definition });
      // The other replica's first sighting, of another definition, finds this one.
      expect(await two.write('held', 'lookup', { hash: OTHER }, true)).toEqual({ hash: HASH, definition });
      expect((await two.read('held')).get('lookup')).toEqual({ hash: HASH, definition });
      await two.write('held', 'lookup', { hash: OTHER }, false);
      expect((await one.read('held')).get('lookup')).toEqual({ hash: OTHER });
      expect((await one.read('other')).size).toBe(0);
    } finally {
      one.close();
      two.close();
    }
  });

  it('fails closed: a record that is not its own, or Redis gone, throws gateway.approvals_unavailable', async () => {
    const connection = connect(redis);
    const store = new RedisApprovalStore(connection, 'closed');
    try {
      await connection.set('closed:definition-approvals:v1:held', '{"format":"other"}', 60_000);
      await expect(store.read('held')).rejects.toMatchObject({ code: GatewayErrorCode.ApprovalsUnavailable });
      const gone = new RedisApprovalStore(
        connectKeyValueStore({ url: 'redis://127.0.0.1:9', connectTimeoutMillis: 200, commandTimeoutMillis: 200 }),
        'x',
      );
      await expect(gone.read('held')).rejects.toThrow(/approved definitions of bundle held cannot be read from Redis/);
      gone.close();
    } finally {
      store.close();
    }
  });
});
