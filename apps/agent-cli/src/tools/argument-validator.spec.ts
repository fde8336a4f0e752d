import { ArgumentValidator } from './argument-validator';

describe('ArgumentValidator', () => {
  const schema = {
    $schema: 'http://json-schema.org/draft-07/schema#',
    type: 'object',
    properties: { message: { type: 'string' }, count: { type: 'integer', minimum: 1 } },
    required: ['message'],
  };

  it('enforces what the schema states: required members and types', () => {
    const validator = new ArgumentValidator(schema);
    expect(validator.check({ message: 'hi', count: 2 })).toBeUndefined();
    expect(validator.check({})).toContain("must have required property 'message'");
    expect(validator.check({ message: 3, count: 0 })).toMatch(/\/message must be string; \/count must be >= 1/);
  });

  it('is lenient where the schema is silent: unknown members pass', () => {
    expect(new ArgumentValidator(schema).check({ message: 'hi', extra: true })).toBeUndefined();
  });

  it('reads 2020-12 schemas (zod 4 servers)', () => {
    // prefixItems exists only in 2020-12: a draft-07 validator would ignore it and accept ['x'].
    const validator = new ArgumentValidator({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: { pair: { type: 'array', prefixItems: [{ type: 'number' }] } },
    });
    expect(validator.unenforcedReason).toBeUndefined();
    expect(validator.check({ pair: ['x'] })).toContain('/pair/0 must be number');
  });

  it('does not enforce a schema it cannot compile, and says why', () => {
    const validator = new ArgumentValidator({ type: 'object', properties: { a: { $ref: '#/definitions/missing' } } });
    expect(validator.unenforcedReason).toContain('missing');
    expect(validator.check({ a: 1 })).toBeUndefined();
  });
});
