import { ToolConcurrencyLimit } from './tool-concurrency-limit';

/** The documented numbers (docs/configuration.md): a pool of 128, 64 per tool, 32 reserved, 8 reserved calls per tool. */
const DEFAULTS = { connectionsPerOrigin: 128, maxConcurrentCallsPerTool: 64, reservedConnectionsPerOrigin: 32, maxReservedCallsPerTool: 8 };
const SERVICE = 'http://tools.internal';

function takeAll(limit: ToolConcurrencyLimit, tool: string, origin = SERVICE): number {
  let taken = 0;
  while (limit.tryAcquire(tool, origin) === 'admitted') taken += 1;
  return taken;
}

describe('ToolConcurrencyLimit', () => {
  it('keeps a reserve of the pool that two tools stuck at their cap cannot take', () => {
    const limit = new ToolConcurrencyLimit(DEFAULTS);
    expect(takeAll(limit, 'stuck_a')).toBe(64);
    expect(takeAll(limit, 'stuck_b')).toBe(32); // the rest of the shared 96
    expect(limit.tryAcquire('stuck_b', SERVICE)).toBe('service_at_limit');
    expect(limit.tryAcquire('stuck_a', SERVICE)).toBe('tool_at_limit');
    expect(takeAll(limit, 'third')).toBe(8);
  });

  it('lets the reserve go only in shares, so it is used up only by four other tools holding 8 calls each', () => {
    const limit = new ToolConcurrencyLimit(DEFAULTS);
    takeAll(limit, 'stuck_a');
    takeAll(limit, 'stuck_b');
    expect(['c', 'd', 'e', 'f'].map((tool) => takeAll(limit, tool))).toEqual([8, 8, 8, 8]);
    expect(limit.tryAcquire('g', SERVICE)).toBe('service_at_limit');
  });

  it('counts each service on its own and gives slots back on release', () => {
    const limit = new ToolConcurrencyLimit(DEFAULTS);
    takeAll(limit, 'stuck_a');
    takeAll(limit, 'stuck_b');
    expect(limit.tryAcquire('elsewhere', 'http://other.internal')).toBe('admitted');
    limit.release('stuck_b', SERVICE);
    expect(limit.tryAcquire('stuck_b', SERVICE)).toBe('admitted');
  });
});
