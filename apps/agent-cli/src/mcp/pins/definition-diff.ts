import { type CanonicalDefinition, printable } from '@toolmesh/protocol';

/** Enough lines to show a description and a few schema changes; the rest is counted, not shown. */
const MAX_DIFF_LINES = 12;
const MAX_VALUE_CHARS = 160;

/**
 * A compact diff of two canonical definitions, one line per JSON path whose value differs
 * (`description: "old" -> "new"`, `+ inputSchema.properties.mode: {...}`, `- ...`). The values are the
 * server's text: escaped and cut, so none can drive the terminal.
 */
export function definitionDiff(pinned: CanonicalDefinition, current: CanonicalDefinition): string[] {
  const before = leaves(pinned);
  const after = leaves(current);
  const lines: string[] = [];
  for (const [path, value] of before) {
    const now = after.get(path);
    if (now === undefined) lines.push(`- ${path}: ${shown(value)}`);
    else if (now !== value) lines.push(`  ${path}: ${shown(value)} -> ${shown(now)}`);
  }
  for (const [path, value] of after) if (!before.has(path)) lines.push(`+ ${path}: ${shown(value)}`);
  if (lines.length <= MAX_DIFF_LINES) return lines;
  return [...lines.slice(0, MAX_DIFF_LINES), `  ... and ${lines.length - MAX_DIFF_LINES} more changes`];
}

/** Each scalar or empty container by its dotted path, as JSON text. */
function leaves(value: unknown, path = '', into = new Map<string, string>()): Map<string, string> {
  const entries = typeof value === 'object' && value !== null ? Object.entries(value) : [];
  if (entries.length === 0) {
    if (path) into.set(path, JSON.stringify(value));
    return into;
  }
  for (const [key, member] of entries) leaves(member, path ? `${path}.${key}` : key, into);
  return into;
}

function shown(json: string): string {
  return printable(json, MAX_VALUE_CHARS);
}
