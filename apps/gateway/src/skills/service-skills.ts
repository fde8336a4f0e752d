import { readFile } from 'node:fs/promises';
import path from 'node:path';

import { errorMessage } from '@toolmesh/protocol';

import { overLimits, type SkillLimits } from './skill';
import { isSkillName } from './skill-document';
import type { ReadSkill, SkillsLoaded, SkillSource } from './skill-source';

/** Where a tool service's skill files are: under its domain, or beside its manifest file. */
export const DEFAULT_SKILLS_PATH = '/skills';

/** A file path inside a skill: `/`-separated segments, none empty, `.` or `..`, none starting with a dot. */
const FILE_PATH = /^(?!\.)[^/\\]+(\/(?!\.)[^/\\]+)*$/;

/** Reads one file of a skill (`<skills path>/<name>/<file>`) with at most `maxBytes`, or throws saying why not. */
export type SkillFileReader = (relative: string, maxBytes: number) => Promise<Buffer>;

/**
 * Skills a tool service ships beside its manifest (docs/manifest-format.md, "Skills"): the manifest's
 * `skills` member lists each skill's name and files; each file is fetched at
 * `<serviceDomain>/skills/<name>/<file>` (a `manifestFile` bundle: `skills/<name>/<file>` beside it),
 * with the manifest's timeout, no redirect, and what is left of the skill's byte limit as its cap. The
 * manifest is fetched again at each load (the catalogue's refresh), its conditional request answered 304
 * when it has not changed. The skills' path is `<bundle>/<name>`.
 */
export function serviceSkillSource(
  bundle: string,
  manifest: { fetch(): Promise<unknown> },
  readFileAt: SkillFileReader,
  limits: SkillLimits,
): SkillSource {
  return {
    label: `bundle ${bundle}`,
    async load(): Promise<SkillsLoaded> {
      let document: unknown;
      try {
        document = await manifest.fetch();
      } catch (error) {
        return { skills: [], skipped: [], failed: `cannot fetch its manifest: ${errorMessage(error)}` };
      }
      const declared = (document as { skills?: unknown }).skills;
      const loaded: SkillsLoaded = { skills: [], skipped: [] };
      if (declared === undefined) return loaded;
      if (!Array.isArray(declared)) return { ...loaded, failed: 'the manifest\'s "skills" must be an array' };
      for (const [index, item] of declared.entries()) {
        const read = await readSkill(bundle, item, readFileAt, limits).catch((error: unknown) => ({ problem: errorMessage(error) }));
        if ('problem' in read) loaded.skipped.push({ skill: skillLabel(item, index), problem: read.problem });
        else loaded.skills.push(read);
      }
      return loaded;
    },
  };
}

/** A tool service's skill files read over HTTP, under `<domain><skillsPath>/<name>/`. */
export function httpSkillFiles(base: string, timeoutMillis: number): SkillFileReader {
  return async (relative, maxBytes) => {
    const url = `${base}/${relative.split('/').map(encodeURIComponent).join('/')}`;
    const response = await fetch(url, { redirect: 'error', signal: AbortSignal.timeout(timeoutMillis) });
    if (!response.ok) {
      await response.body?.cancel();
      throw new Error(`${relative} answered HTTP ${response.status}`);
    }
    const announced = Number(response.headers.get('content-length') ?? 0);
    if (announced > maxBytes) {
      await response.body?.cancel();
      throw new Error(`${relative} goes over the skill's byte limit (mcp.skills.maxBytesPerSkill)`);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of response.body ?? []) {
      size += (chunk as Uint8Array).length;
      if (size > maxBytes) throw new Error(`${relative} goes over the skill's byte limit (mcp.skills.maxBytesPerSkill)`);
      chunks.push(Buffer.from(chunk as Uint8Array));
    }
    return Buffer.concat(chunks);
  };
}

/** A `manifestFile` bundle's skill files, read from the folder beside its manifest. */
export function fileSkillFiles(folder: string): SkillFileReader {
  return async (relative, maxBytes) => {
    const bytes = await readFile(path.join(folder, ...relative.split('/')));
    if (bytes.length > maxBytes) throw new Error(`${relative} goes over the skill's byte limit (mcp.skills.maxBytesPerSkill)`);
    return bytes;
  };
}

async function readSkill(
  bundle: string,
  item: unknown,
  readFileAt: SkillFileReader,
  limits: SkillLimits,
): Promise<ReadSkill | { problem: string }> {
  const { name, files, requiredScopes = [] } = (typeof item === 'object' && item !== null ? item : {}) as Record<string, unknown>;
  if (typeof name !== 'string' || !isSkillName(name)) return { problem: '"name" must be 1-64 characters of a-z, 0-9 and single hyphens' };
  if (!Array.isArray(files) || !files.every((file) => typeof file === 'string' && FILE_PATH.test(file)))
    return { problem: '"files" must list paths inside the skill (a/b.md: no leading /, no . or .. segments)' };
  if (!Array.isArray(requiredScopes) || !requiredScopes.every((scope) => typeof scope === 'string'))
    return { problem: '"requiredScopes" must be a list of scopes' };
  const unique = [...new Set(files as string[])];
  const over = overLimits(unique.length, 0, limits);
  if (over !== undefined) return { problem: `the skill has ${over}` };
  const read: Array<{ path: string; bytes: Buffer }> = [];
  let left = limits.maxBytesPerSkill;
  for (const file of unique) {
    const bytes = await readFileAt(`${name}/${file}`, left);
    left -= bytes.length;
    read.push({ path: file, bytes });
  }
  return { name, skillPath: `${bundle}/${name}`, files: read, requiredScopes: requiredScopes as string[] };
}

function skillLabel(item: unknown, index: number): string {
  const name = (item as { name?: unknown } | null)?.name;
  return typeof name === 'string' && isSkillName(name) ? name : `#${index}`;
}
