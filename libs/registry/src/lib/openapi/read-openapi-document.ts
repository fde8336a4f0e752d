import { DEFAULT_MAX_DEPTH, errorMessage, exceedsDepth, printable } from '@toolmesh/protocol';

import { RegistryError, RegistryErrorCode } from '../errors';
import { setAsideCostlyOperations } from './operation-bounds';

/** The parts of a dereferenced OpenAPI 3.x document the conversion reads. */
export interface OpenApiDocument {
  readonly openapi: string;
  readonly info: { readonly version?: string };
  readonly paths?: Readonly<Record<string, Readonly<Record<string, unknown>> | undefined>>;
  readonly components?: { readonly securitySchemes?: Readonly<Record<string, unknown>> };
  readonly security?: ReadonlyArray<Readonly<Record<string, unknown>>>;
}

/**
 * Validates an OpenAPI 3.0 or 3.1 document and dereferences its local `$ref`s (ADR 0019). A `$ref`
 * outside the document is never fetched: `resolve.external: false` leaves it in place, and the operation
 * whose schemas hold it is refused on its own (convert-openapi.ts). A circular reference stays a `$ref`
 * too, so the schemas stay plain trees that the tool's schema compiler refuses rather than loops.
 * The document given is not changed: the snapshot keeps it as fetched, for its hash and the cache.
 * The library (and its own Ajv) is loaded on the first document: a gateway serving only manifests never loads it.
 * What validating costs is bounded first (operation-bounds.ts): the operations set aside come back with
 * why, by operationKey, for the conversion to refuse.
 */
export async function readOpenApiDocument(
  document: unknown,
  maxSchemaNodes: number,
): Promise<{ api: OpenApiDocument; setAside: ReadonlyMap<string, string> }> {
  const version = (document as { openapi?: unknown } | null)?.openapi;
  if (typeof version !== 'string' || !/^3\.[01]\.\d+$/.test(version)) {
    throw new RegistryError(RegistryErrorCode.OpenApiInvalid, 'not an OpenAPI 3.0 or 3.1 document (no "openapi": "3.0.x" or "3.1.x")');
  }
  // The snapshot's hash and the shared cache write the document back as JSON, which a deep enough one overflows.
  if (exceedsDepth(document, DEFAULT_MAX_DEPTH)) {
    throw new RegistryError(RegistryErrorCode.OpenApiInvalid, `the document is nested deeper than ${DEFAULT_MAX_DEPTH} levels`);
  }
  const { default: SwaggerParser } = await import('@apidevtools/swagger-parser');
  const copy = structuredClone(document) as Record<string, unknown>;
  const setAside = setAsideCostlyOperations(copy, maxSchemaNodes);
  try {
    const api = (await SwaggerParser.validate(copy as never, {
      resolve: { external: false },
      dereference: { circular: 'ignore' },
    })) as unknown as OpenApiDocument;
    return { api, setAside };
  } catch (error) {
    throw new RegistryError(RegistryErrorCode.OpenApiInvalid, `invalid OpenAPI document: ${printable(errorMessage(error), 500)}`, {
      cause: error,
    });
  }
}
