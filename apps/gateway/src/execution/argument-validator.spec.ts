import Ajv2020 from 'ajv/dist/2020';
import { CatalogueGeneration, type ToolDefinition } from '@toolmesh/registry';
import { ArgumentValidator } from './argument-validator';

const tool = (inputSchema: Record<string, unknown>, name = 'search'): ToolDefinition => ({
  name,
  publicTool: { name, inputSchema },
  endpoint: new URL('http://tools.internal/search'),
  bundle: 'core',
});

const schema = {
  type: 'object',
  properties: {
    query: { type: 'string', minLength: 1 },
    limit: { type: 'integer', minimum: 1, maximum: 50 },
    filters: { type: 'object', properties: { status: { enum: ['open', 'closed'] } } },
  },
  required: ['query'],
  additionalProperties: false,
};

describe('ArgumentValidator', () => {
  const validator = new ArgumentValidator();
  const definition = tool(schema);
  const generation = new CatalogueGeneration(1, [definition]);

  it('accepts arguments the schema allows', () => {
    expect(validator.check(generation, definition, { query: 'x', limit: 3, filters: { status: 'open' } })).toEqual({ ok: true });
  });

  it('names each offending field in the seed\'s simple wording', () => {
    expect(validator.check(generation, definition, { limit: 'many', extra: 1, filters: { status: 'lost' } })).toEqual({
      ok: false,
      problems: [
        'arguments.query is required',
        'arguments.extra is not allowed',
        'arguments.limit must be integer',
        'arguments.filters.status must be equal to one of the allowed values',
      ],
    });
  });

  it('supports 2020-12 keywords (prefixItems, dependentRequired)', () => {
    const modern = tool({
      type: 'object',
      properties: { pair: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }], items: false } },
      dependentRequired: { pair: ['label'] },
    }, 'modern');
    const g = new CatalogueGeneration(2, [modern]);
    expect(validator.check(g, modern, { pair: ['a', 1], label: 'x' })).toEqual({ ok: true });
    expect(validator.check(g, modern, { pair: ['a', 'b', 'c'] }).ok).toBe(false);
  });

  it('reports an unusable schema as a problem instead of throwing', () => {
    const broken = tool({ type: 'object', properties: { x: { $ref: '#/nowhere' } } }, 'broken');
    const g = new CatalogueGeneration(3, [broken]);
    expect(validator.check(g, broken, {})).toEqual({ ok: false, problems: [expect.stringContaining("the tool's inputSchema cannot be used")] });
  });

  it('compiles once per tool per generation', () => {
    const spied = new ArgumentValidator();
    const g = new CatalogueGeneration(4, [definition]);
    const compile = jest.spyOn(Ajv2020.prototype, 'compile');
    for (let i = 0; i < 5; i++) spied.check(g, definition, { query: 'x' });
    spied.check(new CatalogueGeneration(5, [definition]), definition, { query: 'x' });
    expect(compile).toHaveBeenCalledTimes(2);
    compile.mockRestore();
  });
});
