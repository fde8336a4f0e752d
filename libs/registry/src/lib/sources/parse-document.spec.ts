import { RegistryError, RegistryErrorCode } from '../errors';
import { MANIFEST_DOCUMENT, OPENAPI_DOCUMENT } from '../model/json-source';
import { parseDocument } from './parse-document';

const refusal = (text: string, kind = OPENAPI_DOCUMENT): RegistryError => {
  try {
    parseDocument(text, kind, 'the document');
  } catch (error) {
    return error as RegistryError;
  }
  throw new Error('parsed');
};

describe('parseDocument', () => {
  it('reads JSON for every kind', () => {
    expect(parseDocument('{"openapi":"3.1.0"}', MANIFEST_DOCUMENT, 'm')).toEqual({ openapi: '3.1.0' });
    expect(parseDocument('{"openapi":"3.1.0"}', OPENAPI_DOCUMENT, 'o')).toEqual({ openapi: '3.1.0' });
  });

  it('reads an OpenAPI document written in YAML, by the 1.2 core schema', () => {
    const yaml =
      'openapi: 3.0.3\ninfo: { title: Pets, version: "1" }\npaths:\n  /pets:\n    get: { operationId: listPets, deprecated: yes }\n';
    expect(parseDocument(yaml, OPENAPI_DOCUMENT, 'o')).toEqual({
      openapi: '3.0.3',
      info: { title: 'Pets', version: '1' },
      paths: { '/pets': { get: { operationId: 'listPets', deprecated: 'yes' } } },
    });
  });

  it('refuses YAML where only JSON is our format (a manifest), saying so', () => {
    const error = refusal('tools: []\n', MANIFEST_DOCUMENT);
    expect(error).toBeInstanceOf(RegistryError);
    expect(error.code).toBe(RegistryErrorCode.ManifestInvalid);
    expect(error.message).toBe('the document is not JSON');
  });

  it('refuses a YAML document that is not OpenAPI (a manifest in YAML, where the lint reads either)', () => {
    expect(refusal('tools: []\n').message).toBe('the document is not JSON (YAML is read only for OpenAPI documents)');
  });

  it('refuses text that is neither, naming the parser error', () => {
    const error = refusal('openapi: [3.0\n  paths: }');
    expect(error.code).toBe(RegistryErrorCode.OpenApiInvalid);
    expect(error.message).toMatch(/^the document is neither JSON nor YAML: /);
  });

  it('refuses a YAML alias bomb instead of expanding it', () => {
    const levels = ['a: &a ["x","x","x","x","x","x","x","x","x","x"]'];
    for (let i = 1; i < 9; i += 1) {
      const previous = String.fromCharCode(96 + i);
      const name = String.fromCharCode(97 + i);
      levels.push(`${name}: &${name} [${Array(10).fill(`*${previous}`).join(',')}]`);
    }
    const error = refusal(levels.join('\n'));
    expect(error.code).toBe(RegistryErrorCode.OpenApiInvalid);
    expect(error.message).toMatch(/alias/i);
  });
});
