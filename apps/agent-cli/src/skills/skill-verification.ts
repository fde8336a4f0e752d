import { createHash } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';

import type { SkillFile } from '@toolmesh/mcp-client';

/**
 * What a server's skill entry promised and a file read from it does not keep: the byte length and the
 * SHA-256 of the raw bytes (SEP-2640). Empty when the file is the one listed.
 */
export function fileMismatches(bytes: Buffer, listed: SkillFile): string[] {
  const problems: string[] = [];
  if (bytes.length !== listed.size) problems.push(`size ${bytes.length} bytes, listed ${listed.size}`);
  const digest = `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
  if (digest !== listed.digest) problems.push(`digest ${digest}, listed ${listed.digest}`);
  return problems;
}

/**
 * The front matter fields in which SKILL.md and the entry's `frontmatter` differ, field by field over
 * both sets of keys: a file whose bytes match a digest the server computed over altered text still has
 * to say what the listing said (a changed description is how a skill would be turned to another use).
 */
export function frontmatterMismatches(file: Readonly<Record<string, unknown>>, listed: Readonly<Record<string, unknown>>): string[] {
  const keys = [...new Set([...Object.keys(listed), ...Object.keys(file)])];
  return keys
    .filter((key) => !isDeepStrictEqual(file[key] ?? null, listed[key] ?? null))
    .map((key) => `front matter "${key}" differs from the listing`);
}
