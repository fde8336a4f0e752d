import { RequestStateSeal, type StateBinding } from './request-state-seal';

describe('RequestStateSeal', () => {
  const SECRET = 'a-shared-secret-of-at-least-32-characters';
  let now = 1_000_000;
  const seal = RequestStateSeal.fromSecret(SECRET, 600, () => now);
  const call: StateBinding = { target: 'order_create', principal: 'token alice', request: '{"item":"c-17"}' };

  it('gives the tool service its state back byte for byte, and hides it from the client', () => {
    const state = 'round-2 {"cart":"c-17"} Grüße';
    const sealed = seal.seal(call, state);
    expect(sealed).not.toContain('cart');
    expect(sealed).not.toContain('alice');
    expect(seal.open(call, sealed)).toEqual({ state });
  });

  it('seals the same state differently each time', () => {
    expect(seal.seal(call, 'same')).not.toBe(seal.seal(call, 'same'));
  });

  it('refuses a state altered, appended to, forged, or brought to another tool', () => {
    const sealed = seal.seal(call, 'state');
    const flipped = `${sealed.slice(0, -2)}${sealed.at(-2) === 'A' ? 'B' : 'A'}${sealed.at(-1)}`;
    for (const tampered of [flipped, `${sealed}-TAMPERED`, `${sealed}x`, 'v2.', 'state', '', sealed.slice(3)]) {
      expect({ tampered, opened: seal.open(call, tampered) }).toEqual({ tampered, opened: { refused: 'not_sealed_here' } });
    }
    expect(seal.open({ ...call, target: 'order_cancel' }, sealed)).toEqual({ refused: 'not_sealed_here' });
  });

  it('refuses a state replayed later, by another caller, or with other arguments', () => {
    const sealed = seal.seal(call, 'state');
    expect(seal.open({ ...call, principal: 'token mallory' }, sealed)).toEqual({ refused: 'other_caller' });
    expect(seal.open({ ...call, request: '{"item":"c-18"}' }, sealed)).toEqual({ refused: 'other_request' });
    now += 600_000;
    expect(seal.open(call, sealed)).toEqual({ state: 'state' }); // the last moment of its life
    now += 1;
    expect(seal.open(call, sealed)).toEqual({ refused: 'expired' });
  });

  it('opens across replicas with the same configured secret, not with another or a drawn one', () => {
    const sealed = seal.seal(call, 'state');
    expect(RequestStateSeal.fromSecret(SECRET, 600, () => now).open(call, sealed)).toEqual({ state: 'state' });
    expect(RequestStateSeal.fromSecret('another-secret-of-at-least-32-characters!', 600).open(call, sealed)).toEqual({
      refused: 'not_sealed_here',
    });
    expect(RequestStateSeal.fromSecret(undefined, 600).open(call, sealed)).toEqual({ refused: 'not_sealed_here' });
  });
});
