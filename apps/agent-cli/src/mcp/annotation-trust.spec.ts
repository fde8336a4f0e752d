import { resolveSideEffects } from './annotation-trust';

describe('resolveSideEffects (the trust table of docs/agent-cli.md)', () => {
  it.each([
    // trust, annotations, expected
    ['ignore', undefined, 'mutating', true],
    ['ignore', { readOnlyHint: true }, 'mutating', true],
    ['ignore', { readOnlyHint: false, destructiveHint: false }, 'mutating', true],
    ['trust', undefined, 'mutating', true],
    ['trust', {}, 'mutating', true],
    ['trust', { readOnlyHint: true }, 'read-only', false],
    ['trust', { readOnlyHint: true, destructiveHint: false }, 'read-only', false],
    ['trust', { readOnlyHint: true, destructiveHint: true }, 'read-only', false], // contradiction: the lenient side
    ['trust', { readOnlyHint: false }, 'mutating', true], // MCP default of destructiveHint is true
    ['trust', { destructiveHint: false }, 'mutating', false],
    ['trust', { readOnlyHint: false, destructiveHint: true }, 'mutating', true],
  ] as const)('%s %j → %s, destructive %s', (trust, annotations, level, destructive) => {
    expect(resolveSideEffects(annotations, trust)).toEqual({ level, destructive, basis: trust === 'trust' ? 'server-claim' : 'assumed' });
  });

  it.each([
    // read-only: a read-only claim is believed, nothing else is
    [{ readOnlyHint: true }, { level: 'read-only', destructive: false, basis: 'server-claim' }],
    [
      { readOnlyHint: true, destructiveHint: true },
      { level: 'read-only', destructive: false, basis: 'server-claim' },
    ],
    [undefined, { level: 'mutating', destructive: true, basis: 'assumed' }],
    [
      { readOnlyHint: false, destructiveHint: false },
      { level: 'mutating', destructive: true, basis: 'assumed' },
    ],
    [
      { destructiveHint: false, idempotentHint: true },
      { level: 'mutating', destructive: true, basis: 'assumed' },
    ],
  ] as const)('read-only %j → %j', (annotations, expected) => {
    expect(resolveSideEffects(annotations, 'read-only')).toEqual(expected);
  });
});
