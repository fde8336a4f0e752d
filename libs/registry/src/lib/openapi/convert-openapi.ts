import { createHash } from 'node:crypto';

import { RegistryError, RegistryErrorCode, toRegistryError } from '../errors';
import type { HttpBinding, OpenApiSelection } from '../model/http-binding';
import { DEFAULT_MAX_SCHEMA_NODES } from '../model/route-limits';
import type { RefusedTool } from '../model/tool-definition';
import { METHODS, operationKey } from './operation-bounds';
import { operationNames } from './operation-names';
import { operationTool } from './operation-tool';
import { readOpenApiDocument } from './read-openapi-document';

/** What an OpenAPI document's selected operations become: a manifest the manifest's own rules then check, and each tool's binding. */
export interface ConvertedOpenApi {
  /** `{revision, tools}` in the manifest format, so names, prefixes, duplicates and endpoints are checked as for any manifest. */
  readonly manifest: { revision?: string; tools: Array<Record<string, unknown>> };
  readonly bindings: ReadonlyMap<string, HttpBinding>;
  /** Each tool's operation's `tags`, by tool name: what a gateway's curated endpoint may select tools by. */
  readonly tags: ReadonlyMap<string, readonly string[]>;
  /** Selected operations that are not tools, each with why. */
  readonly refused: readonly RefusedTool[];
  /** Operations no allowlist or extension selected, as `METHOD /path (operationId)`: for the lint command. */
  readonly ignored: readonly string[];
}

/**
 * The last conversions, by content (document, selection, service domain), failures included. Validating a
 * document takes 200-450 ms of CPU on the event loop (docs/benchmarks.md, "OpenAPI tools"), mostly the
 * library compiling the OpenAPI schema again; a document is refetched every TTL and seldom changes, so an
 * unchanged one costs a hash. Bounded: a few per route, oldest dropped first.
 */
const recent = new Map<string, ConvertedOpenApi | RegistryError>();
const MAX_REMEMBERED = 64;

/** convertUncached, remembered by content (above). */
export async function convertOpenApi(
  document: unknown,
  selection: OpenApiSelection,
  serviceDomain: string,
  maxSchemaNodes = DEFAULT_MAX_SCHEMA_NODES,
): Promise<ConvertedOpenApi> {
  const key = createHash('sha256')
    .update(JSON.stringify([document, selection, serviceDomain, maxSchemaNodes]))
    .digest('base64url');
  let converted = recent.get(key);
  if (converted === undefined) {
    converted = await convertUncached(document, selection, serviceDomain, maxSchemaNodes).catch((error: unknown) =>
      toRegistryError(error, RegistryErrorCode.OpenApiInvalid),
    );
    recent.delete(key);
    recent.set(key, converted);
    if (recent.size > MAX_REMEMBERED) recent.delete(recent.keys().next().value as string);
  }
  if (converted instanceof RegistryError) throw converted;
  return converted;
}

/**
 * Converts an OpenAPI 3.0 or 3.1 document into tools (issue 27): only the operations the bundle's
 * allowlist names (by operationId or tag) or the document marks with `x-toolmesh-tool`, never all of them;
 * `x-toolmesh-tool: false` keeps an operation out whatever the allowlist says. Rejects with a RegistryError
 * (`registry.openapi_invalid`) when the document is not a valid OpenAPI document.
 */
async function convertUncached(
  document: unknown,
  selection: OpenApiSelection,
  serviceDomain: string,
  maxSchemaNodes: number,
): Promise<ConvertedOpenApi> {
  const { api, setAside } = await readOpenApiDocument(document, maxSchemaNodes);
  const basePath = new URL(serviceDomain).pathname.replace(/\/+$/, '');
  const tools: Array<Record<string, unknown>> = [];
  const bindings = new Map<string, HttpBinding>();
  const tags = new Map<string, readonly string[]>();
  const refused: RefusedTool[] = [];
  const ignored: string[] = [];
  const found = new Set<string>();
  const selected: Array<{ method: string; pathTemplate: string; operationId: string }> = [];
  for (const [pathTemplate, pathItem] of Object.entries(api.paths ?? {})) {
    // In the document's order, so that the lint command lists operations as their owner wrote them.
    for (const method of Object.keys(pathItem ?? {}).filter((key) => METHODS.has(key))) {
      const operation = pathItem?.[method] as Record<string, unknown>;
      const operationId = typeof operation['operationId'] === 'string' ? operation['operationId'] : undefined;
      const label = `${method.toUpperCase()} ${pathTemplate}${operationId === undefined ? '' : ` (${operationId})`}`;
      if (operationId !== undefined) found.add(operationId);
      if (!isSelected(operation, operationId, selection)) ignored.push(label);
      else if (operationId === undefined) refused.push(refusal(label, 'the operation has no operationId'));
      else selected.push({ method, pathTemplate, operationId });
    }
  }
  // Named together, so that two operations of one name are both seen (operation-names.ts).
  const names = operationNames(
    selected.map(({ operationId }) => operationId),
    selection.names,
  );
  for (const { method, pathTemplate, operationId } of selected) {
    const named = names.get(operationId);
    if (named === undefined || 'refused' in named) {
      if (named !== undefined) refused.push(named.refused);
      continue;
    }
    const tooLarge = setAside.get(operationKey(method, pathTemplate));
    if (tooLarge !== undefined) {
      refused.push(refusal(operationId, tooLarge, RegistryErrorCode.SchemaTooLarge));
      continue;
    }
    const pathItem = api.paths?.[pathTemplate];
    const converted = operationTool(
      {
        method,
        pathTemplate,
        operation: pathItem?.[method] as Record<string, unknown>,
        pathParameters: (pathItem?.['parameters'] as unknown[] | undefined) ?? [],
        openapiVersion: api.openapi,
        securitySchemes: api.components?.securitySchemes ?? {},
        defaultSecurity: api.security ?? [],
        basePath,
      },
      { name: named.name, timeoutMillis: selection.timeoutMillis, outputSchema: selection.outputSchemas !== 'none' },
    );
    if (!converted.ok) {
      refused.push(refusal(operationId, converted.reason, converted.code));
      continue;
    }
    tools.push(converted.tool);
    bindings.set(named.name, converted.binding);
    tags.set(named.name, operationTags(pathItem?.[method] as Record<string, unknown>));
  }
  for (const operationId of selection.operations) {
    if (!found.has(operationId))
      refused.push(refusal(operationId, "the bundle's allowlist names it, but the document has no such operation"));
  }
  const revision = api.info.version;
  return {
    manifest: { ...(typeof revision === 'string' && { revision: revision.slice(0, 128) }), tools },
    bindings,
    tags,
    refused,
    ignored,
  };
}

function isSelected(operation: Readonly<Record<string, unknown>>, operationId: string | undefined, selection: OpenApiSelection): boolean {
  const marked = operation['x-toolmesh-tool'];
  if (marked === false) return false;
  if (marked === true || (typeof marked === 'object' && marked !== null)) return true;
  if (operationId !== undefined && selection.operations.includes(operationId)) return true;
  return operationTags(operation).some((tag) => selection.tags.includes(tag));
}

/** An operation's `tags`, the strings among them. */
function operationTags(operation: Readonly<Record<string, unknown>>): readonly string[] {
  const tags = operation['tags'];
  return Array.isArray(tags) ? tags.filter((tag): tag is string => typeof tag === 'string') : [];
}

function refusal(name: string, message: string, code: string = RegistryErrorCode.OperationRefused): RefusedTool {
  return { name, code, message };
}
