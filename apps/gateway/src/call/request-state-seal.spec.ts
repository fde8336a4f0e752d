import { RequestStateSeal } from './request-state-seal';

describe('RequestStateSeal', () => {
  const seal = RequestStateSeal.fromSecret('a-shared-secret-of-at-least-32-characters');

  it('gives the tool service its state back byte for byte, and hides it from the client', () => {
    const state = 'round-2 {"cart":"c-17"} Grüße';
    const sealed = seal.seal('order_create', state);
    expect(sealed).not.toContain('cart');
    expect(seal.open('order_create', sealed)).toBe(state);
  });

  it('seals the same state differently each time', () => {
    expect(seal.seal('t', 'same')).not.toBe(seal.seal('t', 'same'));
  });

  it('refuses a state altered, appended to, forged, or brought to another tool', () => {
    const sealed = seal.seal('order_create', 'state');
    const flipped = `${sealed.slice(0, -2)}${sealed.at(-2) === 'A' ? 'B' : 'A'}${sealed.at(-1)}`;
    for (const tampered of [flipped, `${sealed}-TAMPERED`, `${sealed}x`, 'v1.', 'state', '', sealed.slice(3)]) {
      expect({ tampered, opened: seal.open('order_create', tampered) }).toEqual({ tampered, opened: undefined });
    }
    expect(seal.open('order_cancel', sealed)).toBeUndefined();
  });

  it('opens across replicas with the same configured secret, not with another or a drawn one', () => {
    const sealed = seal.seal('t', 'state');
    expect(RequestStateSeal.fromSecret('a-shared-secret-of-at-least-32-characters').open('t', sealed)).toBe('state');
    expect(RequestStateSeal.fromSecret('another-secret-of-at-least-32-characters!').open('t', sealed)).toBeUndefined();
    expect(RequestStateSeal.fromSecret(undefined).open('t', sealed)).toBeUndefined();
  });
});
