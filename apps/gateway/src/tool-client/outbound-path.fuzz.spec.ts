import { type SeededRandom, seededRandom } from '@toolmesh/test-peers/seeded-random';

import { outboundPath } from './outbound-path';

/**
 * Property (issue 27): whatever values an OpenAPI tool's path and query arguments hold, the request stays
 * on the tool service's scheme, host and port, under the operation's fixed path prefix, with exactly the
 * template's segments, and each value comes back whole when its segment or query value is decoded. The
 * origin is joined as the tool client joins it: the endpoint's origin, then the path as built.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 0x0a71);
const CASES = Number(process.env.FUZZ_CASES ?? 4_000);

const ORIGIN = 'http://tools.internal:8080';
const binding = {
  path: ['/base/pets/', { argument: 'petId' }, '/photos/', { argument: 'photo' }],
  query: ['q', 'tags'],
};
const PREFIX = '/base/pets/';

/** What breaks URLs: delimiters, dot segments, encodings, control and non-ASCII characters, lone surrogates. */
const PIECES = [
  '/',
  '\\',
  '..',
  '.',
  '?',
  '#',
  '&',
  '=',
  '%',
  '%2e',
  '%2F',
  '%00',
  '@',
  ':',
  '//',
  'http://evil.example',
  ';',
  '+',
  ' ',
  '\u0000',
  '\r\n',
  '\t',
  '\u007f',
  '\u2028',
  'é',
  '🙂',
  '\ud800',
  'a',
  'Z',
  '9',
  '~',
  '-',
  '_',
  '[',
  ']',
  '!',
  "'",
  '(',
  ')',
  '*',
];

function randomValue(random: SeededRandom): string {
  let value = '';
  for (let i = random.int(6); i >= 0; i--) value += random.next() < 0.7 ? random.pick(PIECES) : String.fromCharCode(random.int(0x10000));
  return value;
}

describe('outboundPath (fuzz)', () => {
  it(`keeps ${CASES} random values inside their own segment or query value`, () => {
    const random = seededRandom(SEED);
    for (let i = 0; i < CASES; i++) {
      const args = {
        petId: randomValue(random),
        photo: randomValue(random),
        q: randomValue(random),
        tags: [randomValue(random), randomValue(random)],
      };
      const built = outboundPath(binding, args);
      if (typeof built !== 'string') {
        // Refused only for what would move the path, or has no UTF-8 form.
        expect(
          [args.petId, args.photo, args.q, ...args.tags].some((value) => ['', '.', '..'].includes(value) || /[\ud800-\udfff]/.test(value)),
        ).toBe(true);
        continue;
      }
      expect(built).toMatch(/^[A-Za-z0-9\-._~%/?&=]*$/);
      const url = new URL(`${ORIGIN}${built}`);
      expect([url.protocol, url.host, url.hash]).toEqual(['http:', 'tools.internal:8080', '']);
      expect(url.pathname.startsWith(PREFIX)).toBe(true);
      const segments = url.pathname.split('/');
      expect(segments).toHaveLength(6);
      expect([segments[3], segments[5]].map(decodeURIComponent)).toEqual([args.petId, args.photo]);
      expect(url.searchParams.get('q')).toBe(args.q);
      expect(url.searchParams.getAll('tags')).toEqual(args.tags);
    }
  });

  it("places the issue's example as one segment, and refuses the values that would move the path", () => {
    expect(outboundPath(binding, { petId: '../admin?x=1#', photo: 'p' })).toBe('/base/pets/..%2Fadmin%3Fx%3D1%23/photos/p');
    for (const petId of ['', '.', '..', undefined]) {
      expect(outboundPath(binding, { petId, photo: 'p' })).toEqual({ problem: expect.stringContaining('arguments.petId') });
    }
    expect(outboundPath({ path: ['/x'], query: ['n'] }, { n: [1, true, null] }, [['api key', 's&t']])).toBe(
      '/x?n=1&n=true&api%20key=s%26t',
    );
  });
});
