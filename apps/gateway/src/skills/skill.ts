import { createHash } from 'node:crypto';

import { readSkillDocument } from './skill-document';

/** One file of a skill, read once per load: its path inside the skill (`/`-separated), bytes, digest and size. */
export interface SkillFile {
  readonly path: string;
  readonly bytes: Buffer;
  /** `sha256:<64 lowercase hex>` of the raw bytes, as served (SEP-2640 §Integrity). */
  readonly digest: string;
  readonly size: number;
  readonly mimeType: string;
}

/**
 * A skill the gateway serves: its skill path (`<name>` for an operator's folder, `<bundle>/<name>` for a
 * tool service's: the last segment is always the name), its SKILL.md front matter, every file, and the
 * scopes a caller needs to see or read it (SPEC G27; none: every caller).
 */
export interface Skill {
  readonly name: string;
  readonly skillPath: string;
  readonly frontmatter: Readonly<Record<string, unknown>>;
  /** SKILL.md first, then the rest by path. */
  readonly files: readonly SkillFile[];
  readonly requiredScopes: readonly string[];
}

/** How much one skill may hold (SEP-2640 §Limits: 512 files and 16 MiB): `mcp.skills.maxFilesPerSkill`, `maxBytesPerSkill`. */
export interface SkillLimits {
  readonly maxFilesPerSkill: number;
  readonly maxBytesPerSkill: number;
}

const MIME_TYPES: Readonly<Record<string, string>> = {
  md: 'text/markdown',
  txt: 'text/plain',
  json: 'application/json',
  yaml: 'application/yaml',
  yml: 'application/yaml',
  py: 'text/x-python',
  sh: 'text/x-shellscript',
  js: 'text/javascript',
  ts: 'text/typescript',
  csv: 'text/csv',
  html: 'text/html',
  xml: 'application/xml',
  pdf: 'application/pdf',
  png: 'image/png',
  jpg: 'image/jpeg',
  svg: 'image/svg+xml',
};

export function mimeTypeOf(path: string): string {
  const extension = /\.([a-z0-9]+)$/i.exec(path)?.[1]?.toLowerCase();
  return (extension !== undefined && MIME_TYPES[extension]) || 'application/octet-stream';
}

/** What is over a skill's limits, if anything: said with the setting to raise. */
export function overLimits(files: number, bytes: number, limits: SkillLimits): string | undefined {
  if (files > limits.maxFilesPerSkill) return `more than ${limits.maxFilesPerSkill} files (mcp.skills.maxFilesPerSkill)`;
  if (bytes > limits.maxBytesPerSkill) return `more than ${limits.maxBytesPerSkill} bytes (mcp.skills.maxBytesPerSkill)`;
  return undefined;
}

/**
 * A skill from its files as read (paths relative to its folder), or why it cannot be served: no SKILL.md,
 * bad front matter (skill-document.ts), or over the limits. Digests and sizes are computed here, once per load.
 */
export function packageSkill(
  read: { readonly name: string; readonly skillPath: string; readonly files: ReadonlyArray<{ path: string; bytes: Buffer }> },
  requiredScopes: readonly string[],
  limits: SkillLimits,
): Skill | { problem: string } {
  const total = read.files.reduce((sum, file) => sum + file.bytes.length, 0);
  const over = overLimits(read.files.length, total, limits);
  if (over !== undefined) return { problem: `the skill has ${over}` };
  const skillMd = read.files.find((file) => file.path === 'SKILL.md');
  if (skillMd === undefined) return { problem: 'the skill has no SKILL.md' };
  const document = readSkillDocument(skillMd.bytes, read.name);
  if ('problem' in document) return document;
  const files = [skillMd, ...read.files.filter((file) => file !== skillMd).sort((a, b) => (a.path < b.path ? -1 : 1))].map(
    ({ path, bytes }) => ({
      path,
      bytes,
      digest: `sha256:${createHash('sha256').update(bytes).digest('hex')}`,
      size: bytes.length,
      mimeType: mimeTypeOf(path),
    }),
  );
  return { name: read.name, skillPath: read.skillPath, frontmatter: document.frontmatter, files, requiredScopes };
}
