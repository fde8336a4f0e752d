import { SchemaCompiler, type SchemaCompilerOptions } from './schema-compiler';
import { SchemaError, SchemaErrorCode } from './schema-errors';

/** Every behaviour holds whether a compiler keeps each schema's checking code or compiles it at the first check. */
const MODES: ReadonlyArray<SchemaCompilerOptions> = [{}, { codeOnFirstCheck: true }];

describe.each(MODES)('SchemaCompiler %o', (mode) => {
  const compilerOf = (options: SchemaCompilerOptions = {}) => new SchemaCompiler({ ...mode, ...options });

  function problemsOf(schema: Record<string, unknown>, value: unknown): string[] {
    const check = compilerOf().compile(schema).check(value, 'arguments');
    return check.ok ? [] : check.problems;
  }

  function compileError(schema: Record<string, unknown>): SchemaError {
    try {
      compilerOf().compile(schema);
    } catch (error) {
      if (error instanceof SchemaError) return error;
      throw error;
    }
    throw new Error('the schema compiled');
  }

  const customer = {
    type: 'object',
    properties: { customerId: { type: 'string', pattern: '^C[0-9]{4}$' }, limit: { type: 'integer' } },
    required: ['customerId'],
    additionalProperties: false,
  };

  it('accepts conforming values', () => {
    expect(problemsOf(customer, { customerId: 'C1001', limit: 3 })).toEqual([]);
  });

  it('words the common problems as callers rely on, naming the field and never the value', () => {
    expect(problemsOf(customer, { limit: 'three', extra: true })).toEqual(
      expect.arrayContaining(['arguments.customerId is required', 'arguments.limit must be integer', 'arguments.extra is not allowed']),
    );
    const [problem] = problemsOf(customer, { customerId: 'secret-value' });
    expect(problem).toBe('arguments.customerId must match pattern "^C[0-9]{4}$"');
    expect(problem).not.toContain('secret-value');
  });

  it('bounds the problems reported for one value', () => {
    const many = { type: 'object', properties: Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`p${i}`, { type: 'string' }])) };
    const value = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`p${i}`, i]));
    const check = compilerOf({ maxProblems: 3 }).compile(many).check(value);
    expect(check.ok === false && check.problems).toHaveLength(3);
  });

  it('runs a catastrophic-backtracking pattern in linear time', () => {
    const schema = { type: 'object', properties: { s: { type: 'string', pattern: '^(a+)+$' } } };
    const compiled = compilerOf().compile(schema);
    const started = process.hrtime.bigint();
    // On V8's backtracking engine this input takes minutes; the assertion is about the answer, and the
    // test's own timeout (a few seconds) is what fails when the engine backtracks.
    expect(compiled.check({ s: `${'a'.repeat(30)}!` }).ok).toBe(false);
    expect(compiled.check({ s: 'a'.repeat(10_000) }).ok).toBe(true);
    expect(process.hrtime.bigint() - started).toBeGreaterThan(0n);
  }, 5_000);

  it('compiles a schema in time linear in its distinct patterns', () => {
    // Ajv's own declaration of the compiled function's patterns was quadratic in their number: 6,000
    // took about 25 s of CPU on a loaded test machine, and about 3 s since (linear-scope-refs.ts).
    const properties = Object.fromEntries(
      Array.from({ length: 6_000 }, (_, i) => [`p${i}`, { type: 'string', pattern: `^v${i}-[a-z]*$` }]),
    );
    const started = process.cpuUsage();
    const compiled = compilerOf().compile({ type: 'object', properties });
    expect(process.cpuUsage(started).user / 1e6).toBeLessThan(12);
    expect(compiled.check({ p0: 'v0-abc', p5999: 'v5999-x' })).toEqual({ ok: true });
    expect(compiled.check({ p5999: 'v5998-x' }, 'arguments')).toEqual({
      ok: false,
      problems: ['arguments.p5999 must match pattern "^v5999-[a-z]*$"'],
    });
  }, 60_000);

  it('runs patternProperties keys on the same engine', () => {
    const schema = { type: 'object', patternProperties: { '^(x+)+$': { type: 'integer' } } };
    expect(problemsOf(schema, { xxxx: 1 })).toEqual([]);
    expect(problemsOf(schema, { xxxx: 'one' })).toEqual(['arguments.xxxx must be integer']);
  });

  it.each([
    ['a back-reference', '^(a)\\1$'],
    ['a lookahead', '^(?=a)a$'],
    ['a negative lookbehind', '(?<!a)b'],
  ])('refuses a pattern with %s as unsupported, naming the pattern', (_, pattern) => {
    const error = compileError({ type: 'string', pattern });
    expect(error.code).toBe(SchemaErrorCode.UnsupportedPattern);
    expect(error.message).toContain(pattern);
  });

  it('refuses a patternProperties key the engine cannot run', () => {
    expect(compileError({ type: 'object', patternProperties: { '(a)\\1': {} } }).code).toBe(SchemaErrorCode.UnsupportedPattern);
  });

  it('accepts ECMA-262 spellings RE2 writes otherwise', () => {
    expect(problemsOf({ type: 'string', pattern: '^\\u0041(?<rest>b+)\\/$' }, 'Abb/')).toEqual([]);
  });

  it('never fetches a remote $ref: the schema is unusable instead', () => {
    const error = compileError({ type: 'object', properties: { a: { $ref: 'https://schemas.example.com/a.json' } } });
    expect(error.code).toBe(SchemaErrorCode.UnresolvedRef);
    expect(error.message).toContain('https://schemas.example.com/a.json');
  });

  it('refuses a $ref to nowhere inside the schema', () => {
    expect(compileError({ type: 'object', properties: { x: { $ref: '#/nowhere' } } }).code).toBe(SchemaErrorCode.UnresolvedRef);
  });

  it('supports 2020-12 keywords (prefixItems, dependentRequired)', () => {
    const modern = {
      type: 'object',
      properties: { pair: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }], items: false } },
      dependentRequired: { pair: ['label'] },
    };
    expect(problemsOf(modern, { pair: ['a', 1], label: 'x' })).toEqual([]);
    expect(problemsOf(modern, { pair: ['a', 'b', 'c'] })).toEqual(
      expect.arrayContaining(['arguments.pair.1 must be number', 'arguments must have property label when property pair is present']),
    );
  });

  it('resolves $ref inside the schema ($defs and draft-07 definitions)', () => {
    expect(
      problemsOf({ $defs: { id: { type: 'integer' } }, type: 'object', properties: { a: { $ref: '#/$defs/id' } } }, { a: 'x' }),
    ).toEqual(['arguments.a must be integer']);
    const draft07 = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      definitions: { id: { type: 'integer' } },
      properties: { a: { $ref: '#/definitions/id' } },
    };
    expect(problemsOf(draft07, { a: 'x' })).toEqual(['arguments.a must be integer']);
  });

  it('reads draft-07 array items as draft-07 does', () => {
    const tuple = { $schema: 'http://json-schema.org/draft-07/schema#', type: 'array', items: [{ type: 'string' }, { type: 'integer' }] };
    expect(problemsOf(tuple, ['a', 'b'])).toEqual(['arguments.1 must be integer']);
  });

  it('refuses a schema that is not JSON Schema', () => {
    expect(compileError({ type: 'no-such-type' }).code).toBe(SchemaErrorCode.Invalid);
    expect(compileError({ properties: { a: { minimum: 'zero' } } }).code).toBe(SchemaErrorCode.Invalid);
  });

  it('keeps unknown keywords and formats as annotations', () => {
    expect(problemsOf({ type: 'string', format: 'no-such-format', 'x-vendor': { any: 1 } }, 'text')).toEqual([]);
  });

  it('rejects unknown keywords in strict mode, for our own documents', () => {
    expect(() => compilerOf({ strict: true }).compile({ type: 'object', propertise: {} })).toThrow(
      /not a usable JSON Schema: strict mode: unknown keyword: "propertise"/,
    );
  });

  it('lets two schemas share one $id without clashing', () => {
    const compiler = compilerOf();
    const a = compiler.compile({ $id: 'https://example.com/args', type: 'string' });
    const b = compiler.compile({ $id: 'https://example.com/args', type: 'integer' });
    expect([a.check('x').ok, b.check(1).ok, b.check('x').ok]).toEqual([true, true, false]);
  });

  it('treats a __proto__ key as data', () => {
    const value = JSON.parse('{"__proto__": {"admin": true}}');
    expect(problemsOf({ type: 'object', properties: { admin: { const: false } } }, value)).toEqual([]);
  });

  it('compiles each schema once, identical copies included, and remembers why one cannot be used', () => {
    const compiler = compilerOf();
    expect(compiler.compile(customer)).toBe(compiler.compile(customer));
    expect(compiler.compile(structuredClone(customer))).toBe(compiler.compile(customer));
    expect(compiler.size).toBe(1);
    const bad = { type: 'string', pattern: '(a)\\1' };
    expect(() => compiler.compile(bad)).toThrow(SchemaError);
    expect(() => compiler.compile(bad)).toThrow(SchemaError);
    expect(compiler.size).toBe(2);
  });
});

describe('SchemaCompiler with codeOnFirstCheck', () => {
  it('proves every schema usable at compile, beyond the number one probing instance compiles', () => {
    const compiler = new SchemaCompiler({ codeOnFirstCheck: true });
    const usable = Array.from({ length: 450 }, (_, i) => compiler.compile({ type: 'string', maxLength: i }));
    expect(() => compiler.compile({ type: 'string', pattern: '(a)\\1' })).toThrow(SchemaError);
    expect(() => compiler.compile({ $ref: '#/$defs/nowhere' })).toThrow(SchemaError);
    expect(usable.map((schema, i) => schema.check('x'.repeat(i)).ok && !schema.check('x'.repeat(i + 1)).ok)).not.toContain(false);
  });
});
