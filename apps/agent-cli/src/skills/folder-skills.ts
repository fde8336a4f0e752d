import { readdir, readFile, realpath, stat } from 'node:fs/promises';
import path from 'node:path';

import { errorMessage } from '@toolmesh/protocol';

import { AgentError, AgentErrorCode } from '../errors/agent-errors';
import { parseSkillDocument, type SkillDocument, skillHeadline } from './skill-document';

/** A skill in a configured folder (`skills.folders`): a subfolder holding a SKILL.md. */
export interface FolderSkillRef {
  readonly folder: string;
  readonly directory: string;
  readonly name: string;
  readonly description: string;
}

/** Files of one local skill offered to the model at most, as a server's listing is bounded (SEP-2640's 512). */
const MAX_LISTED_FILES = 512;

/**
 * The skills in one configured folder, each subfolder with a SKILL.md whose front matter has a name and a
 * description; what could not be read is returned as problems, so one bad skill leaves the others offered.
 * Only the front matter is used here; the body is read when the model loads the skill.
 */
export async function listFolderSkills(folder: string): Promise<{ skills: FolderSkillRef[]; problems: string[] }> {
  let entries;
  try {
    entries = await readdir(folder, { withFileTypes: true });
  } catch (error) {
    return { skills: [], problems: [`skill folder ${folder} cannot be read: ${errorMessage(error)}`] };
  }
  const skills: FolderSkillRef[] = [];
  const problems: string[] = [];
  for (const entry of entries.filter((e) => e.isDirectory()).sort((a, b) => a.name.localeCompare(b.name))) {
    const directory = path.join(folder, entry.name);
    const file = path.join(directory, 'SKILL.md');
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch {
      continue; // A subfolder without a SKILL.md is no skill.
    }
    try {
      const headline = skillHeadline(parseSkillDocument(text).frontmatter);
      if (headline) skills.push({ folder, directory, ...headline });
      else problems.push(`${file}: its front matter needs a name and a description`);
    } catch (error) {
      problems.push(`${file}: ${errorMessage(error)}`);
    }
  }
  return { skills, problems };
}

export async function loadFolderSkill(skill: FolderSkillRef): Promise<SkillDocument> {
  return parseSkillDocument(await readFile(path.join(skill.directory, 'SKILL.md'), 'utf8'));
}

/** One file of the skill by its path in the skill's folder; a path that leads out of it (`..`, a link) is refused. */
export async function readFolderSkillFile(skill: FolderSkillRef, file: string): Promise<Buffer> {
  const root = await realpath(skill.directory);
  let target: string;
  try {
    target = await realpath(path.resolve(skill.directory, file));
  } catch {
    throw unknownFile(skill, file);
  }
  if (!target.startsWith(root + path.sep) || !(await stat(target)).isFile()) throw unknownFile(skill, file);
  return readFile(target);
}

/** The skill's files other than SKILL.md, as paths in its folder, at most MAX_LISTED_FILES. */
export async function folderSkillFiles(skill: FolderSkillRef): Promise<string[]> {
  const files = (await readdir(skill.directory, { recursive: true, withFileTypes: true }))
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(skill.directory, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
    .filter((file) => file !== 'SKILL.md')
    .sort();
  return files.slice(0, MAX_LISTED_FILES);
}

function unknownFile(skill: FolderSkillRef, file: string): AgentError {
  return new AgentError(
    AgentErrorCode.SkillFileUnknown,
    `${file} is not a file in the folder of skill "${skill.name}" (${skill.directory})`,
  );
}
