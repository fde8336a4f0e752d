import type { RequestedRefresh } from '@toolmesh/registry';

import { refreshOnUpstreamChanges } from './upstream-tool-changes';

/**
 * How an MCP server's list_changed becomes its route's refresh: a burst is one refresh, a refresh the
 * catalogue finds too soon is asked again when it allows, and a change told while a refresh runs gets one
 * of its own after it. Real timers, short waits; the catalogue is a recording stand-in.
 */
const settle = (millis: number) => new Promise((resolve) => setTimeout(resolve, millis));

describe('refreshOnUpstreamChanges', () => {
  let tell: (bundle: string) => void;
  let asked: string[];
  let answer: () => Promise<RequestedRefresh>;
  let changes: { stop(): void };

  beforeEach(() => {
    asked = [];
    answer = async () => ({ outcome: 'unknown-route' });
    changes = refreshOnUpstreamChanges(
      { watchChanges: (onChanged) => void (tell = (bundle) => onChanged(bundle, 'tools')) },
      {
        requestRefresh: (bundle) => {
          asked.push(bundle);
          return answer();
        },
      },
    );
  });
  afterEach(() => changes.stop());

  it('refreshes each bundle once for a burst of changes', async () => {
    for (let i = 0; i < 5; i += 1) tell('a');
    tell('b');
    await settle(300);
    expect(asked.sort()).toEqual(['a', 'b']);
  });

  it('asks again when the catalogue says too soon', async () => {
    let first = true;
    answer = async () => {
      if (!first) return { outcome: 'unknown-route' };
      first = false;
      return { outcome: 'too-soon', retryAfterMillis: 200 };
    };
    tell('a');
    await settle(150);
    expect(asked).toEqual(['a']);
    await settle(400);
    expect(asked).toEqual(['a', 'a']);
  });

  it('follows a refresh with another for a change told while it ran', async () => {
    let finish: () => void = () => undefined;
    answer = () => new Promise((resolve) => (finish = () => resolve({ outcome: 'unknown-route' })));
    tell('a');
    await settle(200);
    tell('a'); // while the first refresh runs
    await settle(200);
    finish();
    expect(asked).toEqual(['a', 'a']);
  });

  it('asks nothing once stopped', async () => {
    tell('a');
    changes.stop();
    await settle(300);
    expect(asked).toEqual([]);
  });
});
