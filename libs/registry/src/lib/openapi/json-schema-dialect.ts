/**
 * OpenAPI 3.0's schema dialect, where it differs from what the tool schema compiler reads (JSON Schema
 * 2020-12): `nullable` becomes a `null` type, and the draft-04 boolean `exclusiveMinimum`/`exclusiveMaximum`
 * become numbers. 3.1 schemas are 2020-12 already and pass unchanged. Shared subschemas (a dereferenced
 * document reuses one object for every `$ref` to a component) are converted once.
 */
export function toJsonSchema(schema: unknown, openapiVersion: string): unknown {
  if (!openapiVersion.startsWith('3.0.')) return schema;
  return convert(schema, new Map());
}

function convert(node: unknown, done: Map<object, unknown>): unknown {
  if (typeof node !== 'object' || node === null) return node;
  const known = done.get(node);
  if (known !== undefined) return known;
  if (Array.isArray(node)) {
    const converted: unknown[] = [];
    done.set(node, converted);
    for (const item of node) converted.push(convert(item, done));
    return converted;
  }
  const converted: Record<string, unknown> = {};
  done.set(node, converted);
  for (const [key, value] of Object.entries(node)) converted[key] = convert(value, done);
  if (converted['nullable'] === true && typeof converted['type'] === 'string') converted['type'] = [converted['type'], 'null'];
  delete converted['nullable'];
  for (const [bound, exclusive] of [
    ['minimum', 'exclusiveMinimum'],
    ['maximum', 'exclusiveMaximum'],
  ] as const) {
    if (typeof converted[exclusive] !== 'boolean') continue;
    if (converted[exclusive] === true && typeof converted[bound] === 'number') converted[exclusive] = converted[bound];
    else delete converted[exclusive];
    if (typeof converted[exclusive] === 'number') delete converted[bound];
  }
  return converted;
}

/** The first `$ref` a schema holds that points outside the document (ADR 0019: never fetched), if any. */
export function remoteRefIn(node: unknown, seen = new Set<object>()): string | undefined {
  if (typeof node !== 'object' || node === null || seen.has(node)) return undefined;
  seen.add(node);
  const ref = (node as { $ref?: unknown }).$ref;
  if (typeof ref === 'string' && !ref.startsWith('#')) return ref;
  for (const value of Object.values(node)) {
    const found = remoteRefIn(value, seen);
    if (found !== undefined) return found;
  }
  return undefined;
}
