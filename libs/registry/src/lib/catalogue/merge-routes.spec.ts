import { SchemaCompiler } from '@toolmesh/protocol';

import type { ToolDefinition } from '../model/tool-definition';
import { CatalogueGeneration } from './catalogue-generation';
import { sameCatalogue } from './merge-routes';

const validator = new SchemaCompiler().compile({ type: 'object' });
const tool = (extra: Partial<ToolDefinition> = {}): ToolDefinition => ({
  name: 'getPetById',
  publicTool: { name: 'getPetById', inputSchema: { type: 'object' } },
  endpoint: new URL('http://pets.internal/pet/'),
  target: { kind: 'service' },
  inputValidator: validator,
  mcpHeaders: [],
  routeToken: 'pets',
  ...extra,
});

describe('sameCatalogue', () => {
  it('is true of the same tools, rebuilt', () => {
    expect(
      sameCatalogue(new CatalogueGeneration(1, [tool({ tags: ['pet'] })]), new CatalogueGeneration(2, [tool({ tags: ['pet'] })])),
    ).toBe(true);
  });

  it("is false when only an OpenAPI tool's tags changed: a curated endpoint may select it by them (issue 46)", () => {
    expect(
      sameCatalogue(new CatalogueGeneration(1, [tool({ tags: ['pet'] })]), new CatalogueGeneration(2, [tool({ tags: ['store'] })])),
    ).toBe(false);
    expect(sameCatalogue(new CatalogueGeneration(1, [tool()]), new CatalogueGeneration(2, [tool({ tags: ['pet'] })]))).toBe(false);
  });
});
