import { createHash } from 'node:crypto';

/**
 * The `_meta` key under which a toolmesh gateway gives each tool it serves the hash of the tool's canonical
 * definition (issue 46): what a client, an operator or a pin file compares to tell a changed tool.
 */
export const DEFINITION_HASH_META_KEY = 'io.toolmesh/definitionHash';

/** The `_meta` key of a `tools/list` result naming its catalogue generation's list (an entity tag, issue 46). */
export const CATALOGUE_ETAG_META_KEY = 'io.toolmesh/etag';

/** A tool definition as MCP lists it: a name and whatever else it says. */
export interface ListedToolDefinition {
  readonly name: string;
  readonly [member: string]: unknown;
}

/**
 * What of a tool a model is shown, and so what a pin covers: its name, title, description, schemas and
 * annotations. `_meta`, `icons` and `execution` are left out (no model reads them). Keys are sorted at every
 * depth, so a server that only reorders a schema's keys has not changed its tool.
 */
export type CanonicalDefinition = Readonly<Record<string, unknown>>;

/** The members of a definition besides its name: what a held definition takes from the approved one (the gateway's `hold`). */
export const DEFINITION_FIELDS = ['title', 'description', 'inputSchema', 'outputSchema', 'annotations'] as const;

export function canonicalDefinition(definition: ListedToolDefinition): CanonicalDefinition {
  const canonical: Record<string, unknown> = { name: definition.name };
  for (const field of DEFINITION_FIELDS) canonical[field] = definition[field];
  return sortKeys(canonical) as CanonicalDefinition;
}

/** `sha256:<hex>` of the canonical definition's JSON text: the same for the gateway and the agent CLI. */
export function definitionHash(canonical: CanonicalDefinition): string {
  return `sha256:${createHash('sha256').update(JSON.stringify(canonical)).digest('hex')}`;
}

/** A copy with every object's keys sorted and undefined members dropped (as JSON.stringify would drop them). */
function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (typeof value !== 'object' || value === null) return value;
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    const member = (value as Record<string, unknown>)[key];
    if (member !== undefined) sorted[key] = sortKeys(member);
  }
  return sorted;
}
