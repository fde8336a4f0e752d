/**
 * `x-mcp-header` (2026-07-28, server/tools): a tool argument that clients repeat as an `Mcp-Param-{Name}`
 * header, so that intermediaries can route on it without reading the body.
 */
export interface McpHeaderBinding {
  /** `{Name}` of `Mcp-Param-{Name}`, as the manifest spells it. */
  readonly header: string;
  /** Property names from the arguments object down to the argument. */
  readonly path: readonly string[];
  readonly type: 'string' | 'integer' | 'boolean';
}

export type McpHeaderReading = { ok: true; bindings: McpHeaderBinding[] } | { ok: false; problem: string };

/** RFC 9110 `token`: what a header name may be made of. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const HEADER_TYPES: ReadonlySet<unknown> = new Set(['string', 'integer', 'boolean']);
const ANNOTATION = 'x-mcp-header';

/**
 * Reads and checks a tool's `x-mcp-header` annotations by the revision's rules: a non-empty token, unique
 * without regard to case, on a `string`, `integer` or `boolean` property that is reached from the root
 * through `properties` alone (never `items`, composition, conditionals or `$ref`). Clients must drop a tool
 * that breaks them (the agent's client does, saying so), so the gateway refuses it at load instead of
 * serving a tool no client will call.
 */
export function readMcpHeaderBindings(inputSchema: Readonly<Record<string, unknown>>): McpHeaderReading {
  const bindings: McpHeaderBinding[] = [];
  const reachable = new Set<object>();
  const problem = collect(inputSchema, [], bindings, reachable);
  if (problem) return { ok: false, problem };
  const stray = findStrayAnnotation(inputSchema, reachable, '');
  if (stray !== undefined)
    return { ok: false, problem: `${ANNOTATION} at ${stray || '/'} is not on a property reached through "properties" alone` };
  const seen = new Set<string>();
  for (const { header } of bindings) {
    const key = header.toLowerCase();
    if (seen.has(key)) return { ok: false, problem: `${ANNOTATION} "${header}" is used twice (header names ignore case)` };
    seen.add(key);
  }
  return { ok: true, bindings };
}

function collect(
  schema: Readonly<Record<string, unknown>>,
  path: string[],
  bindings: McpHeaderBinding[],
  reachable: Set<object>,
): string | undefined {
  const properties = schema.properties;
  if (!isRecord(properties)) return undefined;
  for (const [name, property] of Object.entries(properties)) {
    if (!isRecord(property)) continue;
    reachable.add(property);
    const propertyPath = [...path, name];
    if (Object.hasOwn(property, ANNOTATION)) {
      const header = property[ANNOTATION];
      const where = `properties.${propertyPath.join('.properties.')}`;
      if (typeof header !== 'string' || !TOKEN.test(header)) return `${ANNOTATION} at ${where} must be a header name token, e.g. "Region"`;
      if (!HEADER_TYPES.has(property.type))
        return `${ANNOTATION} "${header}" at ${where} must be on a property of type string, integer or boolean`;
      bindings.push({ header, path: propertyPath, type: property.type as McpHeaderBinding['type'] });
    }
    const nested = collect(property, propertyPath, bindings, reachable);
    if (nested) return nested;
  }
  return undefined;
}

/** The JSON pointer of an annotation that `collect` did not reach, if any. */
function findStrayAnnotation(value: unknown, reachable: ReadonlySet<object>, pointer: string): string | undefined {
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = findStrayAnnotation(item, reachable, `${pointer}/${index}`);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (!isRecord(value)) return undefined;
  if (Object.hasOwn(value, ANNOTATION) && !reachable.has(value)) return pointer;
  for (const [key, child] of Object.entries(value)) {
    const found = findStrayAnnotation(child, reachable, `${pointer}/${key}`);
    if (found !== undefined) return found;
  }
  return undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
