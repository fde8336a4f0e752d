import { Cancellation } from './cancellation';

describe('Cancellation', () => {
  it('tells each listener once, with the first reason, and later aborts change nothing', () => {
    const cancellation = new Cancellation();
    const heard: string[] = [];
    cancellation.onAbort((reason) => heard.push(`a:${reason.message}`));
    cancellation.onAbort((reason) => heard.push(`b:${reason.message}`));
    expect(cancellation.aborted).toBe(false);
    expect(() => cancellation.throwIfAborted()).not.toThrow();

    cancellation.abort(new Error('first'));
    cancellation.abort(new Error('second'));

    expect(heard).toEqual(['a:first', 'b:first']);
    expect(cancellation.aborted).toBe(true);
    expect(cancellation.reason?.message).toBe('first');
    expect(() => cancellation.throwIfAborted()).toThrow('first');
  });

  it('does not call a listener that was removed', () => {
    const cancellation = new Cancellation();
    const listener = jest.fn();
    cancellation.onAbort(listener);
    cancellation.offAbort(listener);
    cancellation.offAbort(listener);
    cancellation.abort(new Error('gone'));
    expect(listener).not.toHaveBeenCalled();
  });

  it('calls a listener at once when it is already aborted', () => {
    const cancellation = new Cancellation();
    cancellation.abort(new Error('before'));
    const listener = jest.fn();
    cancellation.onAbort(listener);
    expect(listener).toHaveBeenCalledWith(cancellation.reason);
  });

  it('makes a standard signal on demand that aborts with it, before or after', () => {
    const later = new Cancellation();
    const signal = later.signal;
    expect(signal.aborted).toBe(false);
    later.abort(new Error('later'));
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBe(later.reason);

    const earlier = new Cancellation();
    earlier.abort(new Error('earlier'));
    expect(earlier.signal.aborted).toBe(true);
    expect(earlier.signal.reason).toBe(earlier.reason);
  });

  it('follows a signal, aborted already or later, its reason made an Error', () => {
    const controller = new AbortController();
    const following = Cancellation.following(controller.signal);
    expect(following.aborted).toBe(false);
    controller.abort('stopped');
    expect(following.reason).toEqual(new Error('stopped'));

    const reason = new Error('already');
    expect(Cancellation.following(AbortSignal.abort(reason)).reason).toBe(reason);
  });
});
