import { resolveSideEffects } from './annotation-trust';

/** What a toolmesh gateway puts in the `_meta` of a tool it federates from an MCP server (docs/gateway.md, "MCP servers as a tool source"). */
const FEDERATED = { 'io.toolmesh/annotations': { claimedBy: 'mcp-server', bundle: 'everything' } };

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
    expect(resolveSideEffects({ annotations }, trust)).toEqual({
      level,
      destructive,
      basis: trust === 'trust' ? 'server-claim' : 'assumed',
    });
  });

  describe.each(['read-only', 'read-only-federated'] as const)('%s, a tool without the gateway mark', (trust) => {
    it.each([
      // a read-only claim is believed, nothing else is
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
    ] as const)('%j → %j', (annotations, expected) => {
      expect(resolveSideEffects({ annotations }, trust)).toEqual(expected);
      // A _meta of other keys is no mark.
      expect(resolveSideEffects({ annotations, _meta: { 'example.com/owner': 'team-a' } }, trust)).toEqual(expected);
    });
  });

  describe('a tool a gateway federates from an MCP server (marked in _meta)', () => {
    it.each([
      // trust, annotations, expected
      ['ignore', { readOnlyHint: true }, { level: 'mutating', destructive: true, basis: 'assumed' }],
      // read-only believes the gateway's own tools only: the upstream server's claims are not the gateway's word.
      ['read-only', { readOnlyHint: true }, { level: 'mutating', destructive: true, basis: 'upstream-claim-ignored' }],
      [
        'read-only',
        { readOnlyHint: false, destructiveHint: false },
        { level: 'mutating', destructive: true, basis: 'upstream-claim-ignored' },
      ],
      ['read-only', undefined, { level: 'mutating', destructive: true, basis: 'upstream-claim-ignored' }],
      // read-only-federated: what read-only believes of the gateway's tools, it believes of these too.
      ['read-only-federated', { readOnlyHint: true }, { level: 'read-only', destructive: false, basis: 'upstream-claim' }],
      ['read-only-federated', { readOnlyHint: false, destructiveHint: false }, { level: 'mutating', destructive: true, basis: 'assumed' }],
      ['read-only-federated', undefined, { level: 'mutating', destructive: true, basis: 'assumed' }],
      ['trust', { readOnlyHint: true }, { level: 'read-only', destructive: false, basis: 'upstream-claim' }],
      ['trust', { destructiveHint: false }, { level: 'mutating', destructive: false, basis: 'upstream-claim' }],
      ['trust', {}, { level: 'mutating', destructive: true, basis: 'upstream-claim' }],
    ] as const)('%s %j → %j', (trust, annotations, expected) => {
      expect(resolveSideEffects({ annotations, _meta: FEDERATED }, trust)).toEqual(expected);
    });

    it.each([[{ claimedBy: 'manifest' }], [true], [null], ['mcp-server']])(
      'counts any value under the mark as the mark (%j): it can only withhold trust',
      (mark) => {
        expect(
          resolveSideEffects({ annotations: { readOnlyHint: true }, _meta: { 'io.toolmesh/annotations': mark } }, 'read-only'),
        ).toEqual({
          level: 'mutating',
          destructive: true,
          basis: 'upstream-claim-ignored',
        });
      },
    );
  });
});
