import type { ReadResourceResult, ServerFeatures, SkillEntry } from '@toolmesh/mcp-client';

import { AgentError, AgentErrorCode } from '../errors/agent-errors';
import { parseSkillDocument, type SkillDocument } from './skill-document';
import { fileMismatches, frontmatterMismatches } from './skill-verification';

/** A skill as one server lists it: the server's name, and the entry its files are checked against. */
export interface ServerSkillRef {
  readonly server: string;
  readonly features: ServerFeatures;
  readonly entry: SkillEntry;
}

/**
 * Reads a server skill's SKILL.md (`resources/read`) and checks it against the entry the server listed:
 * size and digest of the raw bytes, and the front matter field by field. Anything that does not match
 * refuses the skill (skills.refused), naming the skill, the server and what differed; an entry whose
 * files are `dynamic` has no digest to check, only its front matter.
 */
export async function loadServerSkill(skill: ServerSkillRef, signal?: AbortSignal): Promise<SkillDocument> {
  const { entry } = skill;
  const listed = entry.resources === 'dynamic' ? undefined : entry.resources.find((file) => file.uri === entry.uri);
  if (entry.resources !== 'dynamic' && !listed) throw refused(skill, ['its entry does not list its own SKILL.md']);
  const bytes = await readBytes(skill, entry.uri, signal);
  const problems = listed ? fileMismatches(bytes, listed) : [];
  let document: SkillDocument | undefined;
  try {
    document = parseSkillDocument(bytes.toString('utf8'));
    problems.push(...frontmatterMismatches(document.frontmatter, entry.frontmatter));
  } catch (error) {
    problems.push((error as Error).message);
  }
  if (problems.length > 0 || !document) throw refused(skill, problems);
  return document;
}

/**
 * Reads one file the skill's entry lists, by its URI or its path in the skill's folder, checked as
 * SKILL.md is: nothing outside the listing is read, so a skill cannot send the host to another resource.
 */
export async function readServerSkillFile(skill: ServerSkillRef, file: string, signal?: AbortSignal): Promise<Buffer> {
  const { entry } = skill;
  if (entry.resources === 'dynamic')
    throw new AgentError(
      AgentErrorCode.SkillFileUnknown,
      `skill ${describe(skill)} lists its files as "dynamic": only its SKILL.md can be loaded, as nothing else can be checked`,
    );
  const uri = file.includes('://') ? file : `${skillRoot(entry)}/${file.replace(/^\.?\//, '')}`;
  const listed = entry.resources.find((candidate) => candidate.uri === uri);
  if (!listed)
    throw new AgentError(
      AgentErrorCode.SkillFileUnknown,
      `${file} is not a file of skill ${describe(skill)}; its files: ${skillFiles(entry).join(', ') || 'none but SKILL.md'}`,
    );
  const bytes = await readBytes(skill, uri, signal);
  const problems = fileMismatches(bytes, listed);
  if (problems.length > 0)
    throw refused(
      skill,
      problems.map((problem) => `${relativeTo(entry, uri)}: ${problem}`),
    );
  return bytes;
}

/** The skill's files other than SKILL.md, as paths in its folder (what the model may ask to read). */
export function skillFiles(entry: SkillEntry): string[] {
  return entry.resources === 'dynamic' ? [] : entry.resources.filter((f) => f.uri !== entry.uri).map((f) => relativeTo(entry, f.uri));
}

/** The skill's folder: its SKILL.md uri without the file name. */
function skillRoot(entry: SkillEntry): string {
  return entry.uri.replace(/\/SKILL\.md$/, '');
}

function relativeTo(entry: SkillEntry, uri: string): string {
  const root = `${skillRoot(entry)}/`;
  return uri.startsWith(root) ? uri.slice(root.length) : uri;
}

/** The raw bytes the server sent for one URI: a text part's UTF-8, or a blob's decoded base64. */
async function readBytes(skill: ServerSkillRef, uri: string, signal?: AbortSignal): Promise<Buffer> {
  const result: ReadResourceResult = await skill.features.readResource(uri, { signal });
  const part = result.contents.find((content) => content.uri === uri) ?? result.contents[0];
  if (!part) throw refused(skill, [`the server sent no contents for ${uri}`]);
  return 'text' in part ? Buffer.from(part.text, 'utf8') : Buffer.from(part.blob, 'base64');
}

function describe({ server, entry }: ServerSkillRef): string {
  return `"${String(entry.frontmatter.name ?? entry.uri)}" of MCP server "${server}"`;
}

function refused(skill: ServerSkillRef, problems: readonly string[]): AgentError {
  return new AgentError(
    AgentErrorCode.SkillRefused,
    `skill ${describe(skill)} refused: ${problems.join('; ')}; it is not what the server listed, so it was not used (ask the server's operator)`,
  );
}
