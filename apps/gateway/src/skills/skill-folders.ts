import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';

import { errorMessage } from '@toolmesh/protocol';

import { overLimits, type SkillLimits } from './skill';
import type { SkillsLoaded, SkillSource } from './skill-source';

/** An operator's folder of skills (`mcp.skills.folders`): each sub-folder holding a SKILL.md is one skill. */
export interface SkillFolder {
  readonly path: string;
  /** Scopes a caller needs to see and read this folder's skills (with `auth`). */
  readonly requiredScopes?: readonly string[];
}

/**
 * Skills from an operator's folder, in the Agent Skills format, read whole at each load. A skill's path is
 * its folder's name (`skill://<name>/SKILL.md`). Only regular files count: symbolic links are not followed
 * (a link cannot take a skill outside its folder) and dot-files (`.git`, `.DS_Store`) are left out. Sizes
 * are looked at before any byte is read, so a skill over its limits costs no read.
 */
export function skillFolderSource(folder: SkillFolder, limits: SkillLimits): SkillSource {
  return {
    label: `folder ${folder.path}`,
    async load(): Promise<SkillsLoaded> {
      let entries;
      try {
        entries = await readdir(folder.path, { withFileTypes: true });
      } catch (error) {
        return { skills: [], skipped: [], failed: `cannot read the folder: ${errorMessage(error)}` };
      }
      const loaded: SkillsLoaded = { skills: [], skipped: [] };
      for (const entry of entries.filter((each) => each.isDirectory() && !each.name.startsWith('.')).sort(byName)) {
        const root = path.join(folder.path, entry.name);
        const listed = await listFiles(root, '', limits).catch((error: unknown) => ({ problem: `cannot read it: ${errorMessage(error)}` }));
        if ('problem' in listed) {
          loaded.skipped.push({ skill: entry.name, problem: listed.problem });
          continue;
        }
        if (!listed.files.some((file) => file.path === 'SKILL.md')) continue; // a folder that is not a skill
        const files = await Promise.all(
          listed.files.map(async (file) => ({ path: file.path, bytes: await readFile(path.join(root, file.path)) })),
        );
        loaded.skills.push({ name: entry.name, skillPath: entry.name, files, requiredScopes: folder.requiredScopes ?? [] });
      }
      return loaded;
    },
  };
}

/** Every regular file under `root` with its size, or the limit it goes over (stopping as soon as it does). */
async function listFiles(
  root: string,
  under: string,
  limits: SkillLimits,
  found: { files: Array<{ path: string; size: number }>; bytes: number } = { files: [], bytes: 0 },
): Promise<{ files: Array<{ path: string; size: number }> } | { problem: string }> {
  for (const entry of (await readdir(path.join(root, under), { withFileTypes: true })).sort(byName)) {
    if (entry.name.startsWith('.')) continue;
    const relative = under === '' ? entry.name : `${under}/${entry.name}`;
    if (entry.isDirectory()) {
      const deeper = await listFiles(root, relative, limits, found);
      if ('problem' in deeper) return deeper;
    } else if (entry.isFile()) {
      const { size } = await stat(path.join(root, relative));
      found.files.push({ path: relative, size });
      found.bytes += size;
      const over = overLimits(found.files.length, found.bytes, limits);
      if (over !== undefined) return { problem: `the skill has ${over}` };
    }
  }
  return found;
}

function byName(a: { name: string }, b: { name: string }): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}
