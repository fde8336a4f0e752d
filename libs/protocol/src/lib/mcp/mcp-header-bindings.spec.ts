import { readMcpHeaderBindings } from './mcp-header-bindings';

const schema = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ type: 'object', properties, ...extra });

describe('x-mcp-header annotations (2026-07-28 rules)', () => {
  it('binds string, integer and boolean properties, nested through properties', () => {
    const reading = readMcpHeaderBindings(
      schema({
        region: { type: 'string', 'x-mcp-header': 'Region' },
        limits: { type: 'object', properties: { priority: { type: 'integer', 'x-mcp-header': 'Priority' } } },
        verbose: { type: 'boolean', 'x-mcp-header': 'Verbose' },
        query: { type: 'string' },
      }),
    );
    expect(reading).toEqual({
      ok: true,
      bindings: [
        { header: 'Region', path: ['region'], type: 'string' },
        { header: 'Priority', path: ['limits', 'priority'], type: 'integer' },
        { header: 'Verbose', path: ['verbose'], type: 'boolean' },
      ],
    });
  });

  it.each([
    ['an empty name', schema({ a: { type: 'string', 'x-mcp-header': '' } }), 'must be a header name token'],
    ['a name that is not a token', schema({ a: { type: 'string', 'x-mcp-header': 'Re gion' } }), 'must be a header name token'],
    ['a number property', schema({ a: { type: 'number', 'x-mcp-header': 'A' } }), 'type string, integer or boolean'],
    ['an object property', schema({ a: { type: 'object', 'x-mcp-header': 'A' } }), 'type string, integer or boolean'],
    [
      'a name used twice, in another case',
      schema({ a: { type: 'string', 'x-mcp-header': 'Zone' }, b: { type: 'string', 'x-mcp-header': 'zone' } }),
      'used twice',
    ],
    [
      'an annotation under items',
      schema({ a: { type: 'array', items: { type: 'string', 'x-mcp-header': 'A' } } }),
      'at /properties/a/items',
    ],
    [
      'an annotation under a composition',
      schema({}, { anyOf: [{ properties: { a: { type: 'string', 'x-mcp-header': 'A' } } }] }),
      'at /anyOf/0/properties/a',
    ],
    [
      'an annotation in $defs',
      schema({ a: { $ref: '#/$defs/a' } }, { $defs: { a: { type: 'string', 'x-mcp-header': 'A' } } }),
      'at /$defs/a',
    ],
  ])('refuses %s', (_, inputSchema, problem) => {
    const reading = readMcpHeaderBindings(inputSchema);
    expect(reading.ok).toBe(false);
    expect(!reading.ok && reading.problem).toContain(problem);
  });

  it('binds nothing in a schema without annotations', () => {
    expect(readMcpHeaderBindings(schema({ a: { type: 'string' } }))).toEqual({ ok: true, bindings: [] });
  });
});
