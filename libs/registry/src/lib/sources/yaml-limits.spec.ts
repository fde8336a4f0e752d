import { stringify } from 'yaml';

import { RegistryError, RegistryErrorCode } from '../errors';
import { OPENAPI_DOCUMENT } from '../model/json-source';
import { parseDocument } from './parse-document';
import { DEFAULT_YAML_LIMITS } from './yaml-limits';

const TWO_MB = 2 * 1_048_576;

const refusal = (text: string, limits = DEFAULT_YAML_LIMITS): RegistryError => {
  try {
    parseDocument(text, OPENAPI_DOCUMENT, 'the document', limits);
  } catch (error) {
    return error as RegistryError;
  }
  throw new Error('parsed');
};

/** A YAML OpenAPI document of `count` operations, each with a parameter, a body and a response schema. */
function generatedDocument(count: number): string {
  const paths: Record<string, unknown> = {};
  // a new object at each use: yaml would write one used twice as an anchor and its alias
  const schema = () => ({
    type: 'object',
    properties: { id: { type: 'integer' }, name: { type: 'string', maxLength: 64 } },
    required: ['id'],
  });
  for (let i = 0; i < count; i += 1) {
    paths[`/items${i}/{id}`] = {
      put: {
        operationId: `putItem${i}`,
        summary: `Replaces item ${i}`,
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
        requestBody: { content: { 'application/json': { schema: schema() } } },
        responses: { '200': { description: 'the item', content: { 'application/json': { schema: schema() } } } },
      },
    };
  }
  return stringify({ openapi: '3.0.3', info: { title: 'Generated', version: '1' }, paths });
}

describe('YAML limits (issue 43: a 2 MB nested YAML document cost 31.8 s of CPU and 2.2 GB)', () => {
  it('refuses 2 MB of nested flow collections as it reads them, naming the limit', () => {
    const depth = TWO_MB / 2;
    const error = refusal(`openapi: 3.0.3\npaths: ${'['.repeat(depth)}${']'.repeat(depth)}\n`);
    expect(error).toBeInstanceOf(RegistryError);
    expect(error.code).toBe(RegistryErrorCode.YamlTooDeep);
    expect(error.message).toBe('the document nests YAML deeper than 256 levels (mcp.catalogue.maxYamlDepth)');
  });

  it('refuses 2 MB of nested block sequences and of nested flow maps', () => {
    expect(refusal(`openapi: 3.0.3\npaths:\n${'- '.repeat(TWO_MB / 2)}x\n`).code).toBe(RegistryErrorCode.YamlTooDeep);
    expect(refusal(`openapi: 3.0.3\npaths: ${'{a: '.repeat(TWO_MB / 4)}\n`).code).toBe(RegistryErrorCode.YamlTooDeep);
  });

  it('refuses nesting by indentation, one level a line', () => {
    const lines = Array.from({ length: 300 }, (_, level) => `${' '.repeat(level)}k:`);
    expect(refusal(`openapi: 3.0.3\n${lines.join('\n')} x\n`).code).toBe(RegistryErrorCode.YamlTooDeep);
  });

  it('reads a document exactly as deep as the limit, and refuses one level more', () => {
    const nested = (depth: number) => `openapi: 3.0.3\nx: ${'['.repeat(depth - 1)}1${']'.repeat(depth - 1)}\n`;
    const limits = { maxDepth: 10, maxNodes: 1_000 };
    // the document's own map is the first level
    expect(parseDocument(nested(10), OPENAPI_DOCUMENT, 'd', limits)).toMatchObject({ openapi: '3.0.3' });
    expect(refusal(nested(11), limits).code).toBe(RegistryErrorCode.YamlTooDeep);
  });

  it('refuses 2 MB of flat nodes over the node count, naming the limit', () => {
    const error = refusal(`openapi: 3.0.3\nx: [${'1,'.repeat(TWO_MB / 2)}1]\n`);
    expect(error.code).toBe(RegistryErrorCode.YamlTooManyNodes);
    expect(error.message).toBe('the document has more than 500000 YAML nodes (mcp.catalogue.maxYamlNodes)');
  });

  it('counts the empty nodes YAML implies, not only the written ones', () => {
    const limits = { maxDepth: 256, maxNodes: 1_000 };
    expect(refusal(`openapi: 3.0.3\nx:\n${'  - \n'.repeat(1_000)}`, limits).code).toBe(RegistryErrorCode.YamlTooManyNodes);
    expect(refusal(`openapi: 3.0.3\nx: {${'? , '.repeat(1_000)}}\n`, limits).code).toBe(RegistryErrorCode.YamlTooManyNodes);
  });

  it('reads a generated document of 3,000 operations whole', () => {
    const text = generatedDocument(3_000);
    const document = parseDocument(text, OPENAPI_DOCUMENT, 'd') as { paths: Record<string, unknown> };
    expect(Object.keys(document.paths)).toHaveLength(3_000);
    expect(document.paths['/items2999/{id}']).toMatchObject({ put: { operationId: 'putItem2999' } });
  });

  it('counts nodes in a block scalar as one, whatever its text holds', () => {
    const text = `openapi: 3.0.3\ndescription: |\n${'  - [a, b]: c\n'.repeat(100)}`;
    expect(parseDocument(text, OPENAPI_DOCUMENT, 'd', { maxDepth: 4, maxNodes: 10 })).toMatchObject({ openapi: '3.0.3' });
  });
});
