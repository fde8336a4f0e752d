import type { AuthenticatedCaller, RequestContext } from '@toolmesh/transport-http/server';

import { CallStream } from '../handlers/call-stream';
import type { HandlerResult } from '../handlers/method-handler';
import { CallsInFlight } from './calls-in-flight';

const caller = (subject: string): AuthenticatedCaller => ({ subject, scopes: new Set(), claims: { iss: 'https://issuer.example' } });
const contextOf = (who: AuthenticatedCaller | undefined, sessionId: string | undefined, guid = 'guid-1'): RequestContext => ({
  guid,
  requestId: 'r',
  sessionId,
  caller: who,
  deadline: 0,
  receivedAt: 0,
});

/** A call in flight whose cancellation is seen by whoever follows it, as forwarding does. */
function running(): { call: CallStream; cancelled: () => boolean; settle: () => Promise<void> } {
  const call = new CallStream(() => '', undefined, undefined);
  let cancelled = false;
  call.onClose(() => (cancelled = true));
  let settle: (result: HandlerResult) => void = () => undefined;
  const answer = new Promise<HandlerResult>((resolve) => (settle = resolve));
  return {
    call,
    cancelled: () => cancelled,
    settle: async () => {
      void call.firstOf(answer);
      settle({ result: {} });
      await answer;
    },
  };
}

describe('CallsInFlight (issue 44)', () => {
  const alice = caller('alice');

  it("cancels a call only for its own caller, session and id: never another caller's", () => {
    const calls = new CallsInFlight();
    const call = running();
    calls.tracked(7, contextOf(alice, 'session-a'), call.call);
    calls.cancel({ requestId: 7 }, contextOf(caller('mallory'), 'session-a'));
    calls.cancel({ requestId: 7 }, contextOf(alice, 'session-b'));
    calls.cancel({ requestId: '7' }, contextOf(alice, 'session-a'));
    calls.cancel({ requestId: 7 }, contextOf(undefined, 'session-a'));
    expect(call.cancelled()).toBe(false);
    calls.cancel({ requestId: 7 }, contextOf(alice, 'session-a'));
    expect(call.cancelled()).toBe(true);
  });

  it('names a caller without a session by its guid, and forgets a call once its answer settles', async () => {
    const calls = new CallsInFlight();
    const first = running();
    calls.tracked('a', contextOf(undefined, undefined, 'guid-1'), first.call);
    calls.cancel({ requestId: 'a' }, contextOf(undefined, undefined, 'guid-2'));
    expect(first.cancelled()).toBe(false);
    await first.settle();
    calls.cancel({ requestId: 'a' }, contextOf(undefined, undefined, 'guid-1'));
    expect(first.cancelled()).toBe(false);
  });

  it('keeps the first of two calls that reuse an id while in flight', () => {
    const calls = new CallsInFlight();
    const [first, second] = [running(), running()];
    calls.tracked(1, contextOf(alice, 's'), first.call);
    calls.tracked(1, contextOf(alice, 's'), second.call);
    calls.cancel({ requestId: 1 }, contextOf(alice, 's'));
    expect([first.cancelled(), second.cancelled()]).toEqual([true, false]);
  });
});
