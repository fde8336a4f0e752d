import { type SeededRandom, seededRandom } from '@toolmesh/test-peers/seeded-random';

import { validateManifest } from './validate-manifest';

/**
 * Property (SPEC N2): whatever a tool service publishes, validation returns (never throws) either tool
 * definitions whose endpoints are http(s) URLs, or a bounded list of problems.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 0x3a11);
const CASES = Number(process.env.FUZZ_CASES ?? 5_000);
const target = { name: 'fuzz', serviceDomain: 'http://tools.internal:8080/base', namePrefix: undefined };

const VALUES = [
  null,
  true,
  0,
  -1,
  1.5,
  Number.POSITIVE_INFINITY,
  '',
  'x',
  '/path',
  '//evil',
  'http://h/x',
  'https://u:p@h/x',
  'file:///etc/passwd',
  'javascript:alert(1)',
  '\u0000',
  [],
  {},
];
const KEYS = [
  'name',
  'inputSchema',
  'endpoint',
  'timeoutMillis',
  '_meta',
  'title',
  '__proto__',
  'constructor',
  'tools',
  'type',
  'properties',
];

function randomValue(r: SeededRandom, depth: number): unknown {
  if (depth > 3 || r.next() < 0.5) return r.pick(VALUES);
  if (r.next() < 0.3) return Array.from({ length: r.int(3) }, () => randomValue(r, depth + 1));
  const object: Record<string, unknown> = {};
  for (let i = r.int(4); i > 0; i--) object[r.pick(KEYS)] = randomValue(r, depth + 1);
  return object;
}

function validTool(r: SeededRandom, i: number): Record<string, unknown> {
  return {
    name: `tool_${i}`,
    inputSchema: { type: 'object' },
    endpoint: r.pick(['/ok', 'http://other.internal/x', 'https://secure.internal/y']),
  };
}

function generate(r: SeededRandom): unknown {
  const tools = Array.from({ length: r.int(5) }, (_, i) => validTool(r, i));
  for (let n = r.int(3); n > 0 && tools.length > 0; n--) {
    const tool = r.pick(tools);
    tool[r.pick(KEYS)] = randomValue(r, 1); // one field of one tool made wrong, or odd
  }
  return r.next() < 0.15 ? randomValue(r, 0) : { tools, ...(r.next() < 0.3 && { [r.pick(KEYS)]: randomValue(r, 1) }) };
}

describe(`manifest validation fuzz (seed ${SEED}, ${CASES} cases)`, () => {
  it('never throws, and yields only http(s) endpoints or a bounded list of problems', () => {
    const r = seededRandom(SEED);
    const outcomes = { ok: 0, rejected: 0 };
    for (let i = 0; i < CASES; i++) {
      const document = generate(r);
      let result: ReturnType<typeof validateManifest>;
      try {
        result = validateManifest(document, target);
      } catch (error) {
        throw new Error(`case ${i} (seed ${SEED}) threw for ${JSON.stringify(document)?.slice(0, 300)}`, { cause: error });
      }
      if (result.ok) {
        outcomes.ok += 1;
        for (const tool of result.manifest.tools) {
          expect(['http:', 'https:']).toContain(tool.endpoint.protocol);
          expect(tool.endpoint.username + tool.endpoint.password).toBe('');
          expect(Object.keys(tool.publicTool)).not.toContain('endpoint');
        }
      } else {
        outcomes.rejected += 1;
        expect(result.problems.length).toBeGreaterThan(0);
        expect(result.problems.length).toBeLessThanOrEqual(20);
      }
    }
    expect(outcomes.ok).toBeGreaterThan(CASES * 0.1);
    expect(outcomes.rejected).toBeGreaterThan(CASES * 0.1);
  });
});
