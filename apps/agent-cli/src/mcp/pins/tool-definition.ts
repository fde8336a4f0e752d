import { createHash } from 'node:crypto';

import type { Tool as McpToolDefinition } from '@toolmesh/mcp-client';

/**
 * What of a server's tool the model is shown, and so what a pin covers: its name, title, description,
 * schemas and annotations. `_meta` and `icons` are left out (the model never sees them). Keys are sorted
 * at every depth, so a server that only reorders a schema's keys has not changed its tool.
 */
export type CanonicalDefinition = Readonly<Record<string, unknown>>;

export function canonicalDefinition(definition: McpToolDefinition): CanonicalDefinition {
  const { name, title, description, inputSchema, outputSchema, annotations } = definition;
  return sortKeys({ name, title, description, inputSchema, outputSchema, annotations }) as CanonicalDefinition;
}

/** `sha256:<hex>` of the canonical definition's JSON text. */
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
