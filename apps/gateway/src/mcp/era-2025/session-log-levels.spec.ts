import type { AuthenticatedCaller, RequestContext } from '@toolmesh/transport-http/server';

import { SessionLogLevels } from './session-log-levels';

const caller = (subject: string): AuthenticatedCaller => ({ subject, scopes: new Set(), claims: { iss: 'https://issuer.example' } });
const contextOf = (who: AuthenticatedCaller | undefined, sessionId: string | undefined): RequestContext => ({
  guid: 'guid-1',
  requestId: 'r',
  sessionId,
  caller: who,
  deadline: 0,
  receivedAt: 0,
});

describe('SessionLogLevels (issue 44)', () => {
  const alice = caller('alice');
  const bob = caller('bob');

  it("keeps a level for its caller's session alone: not another caller's of the same session id, not a request without one", () => {
    const levels = new SessionLogLevels(10);
    levels.set(contextOf(alice, 's-1'), 'warning');
    levels.set(contextOf(alice, undefined), 'debug');
    expect(levels.of(contextOf(alice, 's-1'))).toBe('warning');
    expect(levels.of(contextOf(bob, 's-1'))).toBeUndefined();
    expect(levels.of(contextOf(alice, 's-2'))).toBeUndefined();
    expect(levels.of(contextOf(alice, undefined))).toBeUndefined();
  });

  it('forgets the session that set its level longest ago once past its maximum; setting again makes a session the newest', () => {
    const levels = new SessionLogLevels(2);
    levels.set(contextOf(alice, 's-1'), 'info');
    levels.set(contextOf(alice, 's-2'), 'error');
    levels.set(contextOf(alice, 's-1'), 'notice');
    levels.set(contextOf(alice, 's-3'), 'debug');
    expect([levels.of(contextOf(alice, 's-1')), levels.of(contextOf(alice, 's-2')), levels.of(contextOf(alice, 's-3'))]).toEqual([
      'notice',
      undefined,
      'debug',
    ]);
  });
});
