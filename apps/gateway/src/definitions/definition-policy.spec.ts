import { reviewDefinition } from './definition-policy';

const definition = { name: 'lookup', description: 'Looks up an order' };

describe('the review of a pinned definition', () => {
  it('serves an approved definition, and stores it when only its hash was known', () => {
    expect(reviewDefinition('hold', 'h1', { stored: { hash: 'h1', definition } }, true)).toEqual({
      state: 'approved',
      serve: 'current',
      store: false,
    });
    expect(reviewDefinition('hold', 'h1', { pinned: 'h1' }, false)).toEqual({ state: 'approved', serve: 'current', store: true });
    expect(reviewDefinition('hold', 'h1', { pinned: 'h1', stored: { hash: 'h0', definition } }, false)).toMatchObject({
      state: 'approved',
      store: true,
    });
  });

  it('approves a first sighting under trust on first use, and holds a new tool of a pinned bundle', () => {
    expect(reviewDefinition('hold', 'h1', {}, true)).toEqual({ state: 'approved', serve: 'current', store: true });
    expect(reviewDefinition('hold', 'h1', {}, false)).toEqual({ state: 'new-held', serve: 'none', store: false });
    expect(reviewDefinition('warn', 'h1', {}, false)).toEqual({ state: 'new-warned', serve: 'current', store: false });
  });

  it('holds a changed definition with the last approved one, or serves none when only its hash is known', () => {
    expect(reviewDefinition('hold', 'h2', { stored: { hash: 'h1', definition } }, true)).toEqual({
      state: 'changed-held',
      serve: 'approved',
      store: false,
    });
    expect(reviewDefinition('hold', 'h2', { pinned: 'h1' }, false)).toEqual({ state: 'changed-held', serve: 'none', store: false });
  });

  it('serves a changed definition under warn, without approving it', () => {
    expect(reviewDefinition('warn', 'h2', { stored: { hash: 'h1', definition } }, true)).toEqual({
      state: 'changed-warned',
      serve: 'current',
      store: false,
    });
  });
});
