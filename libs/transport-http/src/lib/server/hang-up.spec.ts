import { HangUp } from './hang-up';

describe('HangUp', () => {
  it('calls each listener once when it fires, and a listener added later at once', () => {
    const hangUp = new HangUp();
    const calls: string[] = [];
    const removed = () => calls.push('removed');
    hangUp.onHangUp(() => calls.push('first'));
    hangUp.onHangUp(removed);
    hangUp.offHangUp(removed);
    expect(hangUp.happened).toBe(false);
    hangUp.fire();
    hangUp.fire();
    hangUp.onHangUp(() => calls.push('late'));
    expect(calls).toEqual(['first', 'late']);
    expect(hangUp.happened).toBe(true);
  });
});
