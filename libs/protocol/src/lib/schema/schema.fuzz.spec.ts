import { seededRandom } from '@toolmesh/test-peers/seeded-random';

import { SchemaCompiler } from './schema-compiler';
import { SchemaError, SchemaErrorCode } from './schema-errors';

/**
 * Property (SPEC N2, N5): whatever pattern a schema carries, compiling either succeeds or throws a
 * SchemaError with a documented code, and checking any string returns a verdict. Checks are bounded by
 * the test's timeout: a backtracking engine would blow it on the nested quantifiers generated here.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 0x5e2a);
const CASES = Number(process.env.FUZZ_CASES ?? 2_000);

const FRAGMENTS = [
  'a',
  'b',
  '(',
  ')',
  '(a+)+',
  '(a|a)*',
  '+',
  '*',
  '?',
  '{2,5}',
  '|',
  '^',
  '$',
  '.',
  '\\d',
  '\\w',
  '[a-z]',
  '[^x]',
  '\\1',
  '(?=a)',
  '(?<!b)',
  '(?:',
  '\\',
  '[',
  '{',
  '\\u0041',
  '\\p{L}',
];
const CODES: readonly string[] = Object.values(SchemaErrorCode);

describe(`schema pattern fuzz (seed ${SEED}, ${CASES} cases)`, () => {
  it('compiles to a validator or a documented SchemaError, and always answers in linear time', () => {
    const r = seededRandom(SEED);
    const compiler = new SchemaCompiler();
    const outcomes = { compiled: 0, refused: 0 };
    for (let i = 0; i < CASES; i++) {
      const pattern = Array.from({ length: 1 + r.int(8) }, () => r.pick(FRAGMENTS)).join('');
      const schema =
        r.next() < 0.5 ? { type: 'string', pattern } : { type: 'object', patternProperties: { [pattern]: { type: 'integer' } } };
      let compiled;
      try {
        compiled = compiler.compile(schema);
      } catch (error) {
        if (!(error instanceof SchemaError) || !CODES.includes(error.code))
          throw new Error(`case ${i}: pattern ${JSON.stringify(pattern)} threw`, { cause: error });
        outcomes.refused += 1;
        continue;
      }
      outcomes.compiled += 1;
      const input = `${'a'.repeat(r.int(3000))}${r.pick(['!', '', 'b', '\n'])}`;
      const value = schema.type === 'string' ? input : { [input]: 'x' };
      expect(typeof compiled.check(value).ok).toBe('boolean');
    }
    // Both branches ran, or the property says little.
    expect(outcomes.compiled).toBeGreaterThan(CASES / 10);
    expect(outcomes.refused).toBeGreaterThan(CASES / 10);
  });
});
