import type { Cancellation } from '@toolmesh/protocol';

import { HeldCalls } from './held-calls';
import { RelayedCall } from './relayed-call';
import { RelayRefusal, type ServerRequest } from './server-request-relay';

/**
 * A forwarded call whose server asks our caller for input on the way (issue 28): its requests come out in
 * order under their own keys, each answer goes back to its own request, and a call held for a retry that
 * never comes is cancelled when its time is up, its server told so.
 */
const ELICIT: ServerRequest = { method: 'elicitation/create', params: { message: 'Your name?' } };
const ROOTS: ServerRequest = { method: 'roots/list', params: {} };
const notAborted = () => new AbortController().signal;
const LIMITS = { max: 256, maxPerBundle: 64 };

/** A call that asks what `asks` says, in turn, and ends with the answers it got. */
function callAsking(...asks: ServerRequest[]) {
  let cancellation: Cancellation | undefined;
  const call = new RelayedCall<unknown[]>(async (relay) => {
    cancellation = relay.cancellation;
    const answers: unknown[] = [];
    for (const request of asks) answers.push(await relay.ask(request, notAborted()).catch((error: Error) => error));
    return answers;
  });
  return { call, aborted: () => cancellation?.aborted };
}

describe('RelayedCall', () => {
  it('ends with the call when its server asks nothing', async () => {
    const { call } = callAsking();
    expect(await call.next()).toEqual({ ended: [] });
  });

  it('brings each request out under a key, and each answer back to the request it answers', async () => {
    const { call } = callAsking(ELICIT, ROOTS);
    const first = await call.next();
    if (!('asks' in first)) throw new Error('expected a request');
    const [[elicitKey, elicit]] = [...first.asks];
    expect(elicit).toBe(ELICIT);
    call.answer({ [elicitKey]: { action: 'accept', content: { name: 'Ada' } } });
    const second = await call.next();
    if (!('asks' in second)) throw new Error('expected a request');
    const [rootsKey] = [...second.asks.keys()];
    call.settle(rootsKey, Promise.resolve({ roots: [] }));
    expect(await call.next()).toEqual({ ended: [{ action: 'accept', content: { name: 'Ada' } }, { roots: [] }] });
  });

  it('refuses a request the retry brings no answer for, with -32602 for the server', async () => {
    const { call } = callAsking(ELICIT);
    await call.next();
    call.answer({ someone_else: { action: 'decline' } });
    const ended = await call.next();
    expect('ended' in ended && ended.ended[0]).toMatchObject({ code: -32602 });
  });

  it('waits on past a request the server withdrew before it was taken, and ends with the call', async () => {
    const withdrawn = new AbortController();
    let relay!: RelayedCall<string>;
    let finish!: (value: string) => void;
    const call = new RelayedCall<string>((started) => {
      relay = started;
      return new Promise((resolve) => (finish = resolve));
    });
    const progress = call.next();
    // Asked and withdrawn before the waiting next runs again: it finds nothing to take.
    relay.ask(ELICIT, withdrawn.signal).catch(() => undefined);
    withdrawn.abort();
    await new Promise((resolve) => setImmediate(resolve));
    finish('done');
    expect(await progress).toEqual({ ended: 'done' });
  });

  it('throws from next what the call failed with', async () => {
    const call = new RelayedCall<never>(() => Promise.reject(new Error('the connection was lost')));
    await expect(call.next()).rejects.toThrow('the connection was lost');
  });
});

describe('HeldCalls', () => {
  it('gives a held call back once, and nothing for a key it does not hold', async () => {
    const held = new HeldCalls<unknown[]>(LIMITS, 60_000);
    const { call } = callAsking(ELICIT);
    await call.next();
    const key = String(held.hold(call, 'everything'));
    expect(held.take('another-replicas-key')).toBeUndefined();
    expect(held.take(key)).toBe(call);
    expect(held.take(key)).toBeUndefined();
  });

  it("cancels a call whose caller did not come back in time: the server's request refused, its call aborted", async () => {
    const held = new HeldCalls<unknown[]>(LIMITS, 50);
    const { call, aborted } = callAsking(ELICIT);
    await call.next();
    const key = String(held.hold(call, 'everything'));
    const ended = await call.next();
    expect('ended' in ended && ended.ended[0]).toEqual(expect.any(RelayRefusal));
    expect(aborted()).toBe(true);
    expect(held.take(key)).toBeUndefined();
  });

  it('holds no more calls than its limits, of one bundle and in all, and holds again once a call is taken (issue 43)', async () => {
    const held = new HeldCalls<unknown[]>({ max: 3, maxPerBundle: 2 }, 60_000);
    const asking = async () => {
      const { call } = callAsking(ELICIT);
      await call.next();
      return call;
    };
    const first = held.hold(await asking(), 'a');
    const second = held.hold(await asking(), 'a');
    expect(held.hold(await asking(), 'a')).toBeUndefined();
    const third = held.hold(await asking(), 'b');
    expect(third).toEqual(expect.any(String));
    expect(held.hold(await asking(), 'c')).toBeUndefined();

    held.take(String(first));
    expect(held.hold(await asking(), 'c')).toEqual(expect.any(String));
    held.take(String(second));
    expect(held.hold(await asking(), 'a')).toEqual(expect.any(String));
    held.close();
  });
});
