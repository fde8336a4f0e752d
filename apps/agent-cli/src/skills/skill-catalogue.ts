import path from 'node:path';
import { pathToFileURL } from 'node:url';

import { errorMessage } from '@toolmesh/protocol';

import { AgentError, AgentErrorCode } from '../errors/agent-errors';
import type { ConnectedServers } from '../mcp/host/connected-servers';
import { folderSkillFiles, type FolderSkillRef, listFolderSkills, loadFolderSkill, readFolderSkillFile } from './folder-skills';
import { loadServerSkill, readServerSkillFile, type ServerSkillRef, skillFiles } from './server-skills';
import { type SkillDocument, skillHeadline } from './skill-document';

/**
 * One skill the agent offers: its name and description (all the model sees until it loads it), and
 * where it comes from. `origin` tells skills of the same name apart: `mcp:<server>` or `folder:<path>`.
 */
export interface OfferedSkill {
  readonly name: string;
  readonly description: string;
  readonly origin: string;
  /** SKILL.md's URI: the server's, or a local file's `file:` URL. */
  readonly uri: string;
  readonly source: { readonly kind: 'server'; readonly ref: ServerSkillRef } | { readonly kind: 'folder'; readonly ref: FolderSkillRef };
}

/** A loaded skill: its instructions, and the files the model may read next. */
export interface LoadedSkill {
  readonly document: SkillDocument;
  readonly files: readonly string[];
}

/**
 * The skills of the connected servers that declare the skills extension and of the configured folders,
 * listed once when the catalogue is made; nothing of a skill beyond its listing is read until `load` or
 * `readFile` is asked for it (no prefetch, SEP-2640). Every skill is kept, whatever its name: a server's
 * skill never hides a local one or another server's, the model names the origin when a name is shared.
 */
export class SkillCatalogue {
  private constructor(
    readonly skills: readonly OfferedSkill[],
    /** What could not be listed (a server's failed `skills/list`, a SKILL.md without a name): reported, not fatal. */
    readonly problems: readonly string[],
    /** The servers whose `skills/list` failed: their skills are missing. */
    readonly unlistedServers: readonly string[],
  ) {}

  static async create(servers: ConnectedServers, folders: readonly string[], signal?: AbortSignal): Promise<SkillCatalogue> {
    const problems: string[] = [];
    const unlisted: string[] = [];
    const listed = await Promise.all([
      ...servers.status.map((status) => serverSkills(servers, status, problems, unlisted, signal)),
      ...folders.map(async (folder) => {
        const found = await listFolderSkills(folder);
        problems.push(...found.problems);
        return found.skills.map((ref): OfferedSkill => ({
          name: ref.name,
          description: ref.description,
          origin: `folder:${folder}`,
          uri: pathToFileURL(path.join(ref.directory, 'SKILL.md')).href,
          source: { kind: 'folder', ref },
        }));
      }),
    ]);
    return new SkillCatalogue(listed.flat(), problems, unlisted);
  }

  /** The skill of that name (and origin, needed when several origins offer the name); otherwise an error naming the choices. */
  find(name: string, origin?: string): OfferedSkill {
    const named = this.skills.filter((skill) => skill.name === name && (origin === undefined || skill.origin === origin));
    if (named.length === 1) return named[0];
    if (named.length > 1)
      throw new AgentError(
        AgentErrorCode.SkillUnknown,
        `several skills are named "${name}": give origin, one of ${named.map((skill) => skill.origin).join(', ')}`,
      );
    const offered = this.skills.map((skill) => `${skill.name} (${skill.origin})`).join(', ') || 'none';
    throw new AgentError(
      AgentErrorCode.SkillUnknown,
      `no skill "${name}"${origin ? ` from ${origin}` : ''} is offered (offered: ${offered})`,
    );
  }

  /** The skill's SKILL.md, a server's checked against its listing (server-skills.ts), and its other files' paths. */
  async load(skill: OfferedSkill, signal?: AbortSignal): Promise<LoadedSkill> {
    const { source } = skill;
    return source.kind === 'server'
      ? { document: await loadServerSkill(source.ref, signal), files: skillFiles(source.ref.entry) }
      : { document: await loadFolderSkill(source.ref), files: await folderSkillFiles(source.ref) };
  }

  /** One of the skill's files, by its path in the skill's folder (or, for a server's, its listed URI). */
  readFile(skill: OfferedSkill, file: string, signal?: AbortSignal): Promise<Buffer> {
    const { source } = skill;
    return source.kind === 'server' ? readServerSkillFile(source.ref, file, signal) : readFolderSkillFile(source.ref, file);
  }
}

/** One connected server's skills, if it declared the extension; a failed listing is a problem, not an error. */
async function serverSkills(
  servers: ConnectedServers,
  { name, state }: ConnectedServers['status'][number],
  problems: string[],
  unlisted: string[],
  signal?: AbortSignal,
): Promise<OfferedSkill[]> {
  const client = state === 'connected' ? servers.client(name) : undefined;
  if (!client?.isConnected || !client.features.offersSkills()) return [];
  const { features } = client;
  try {
    return (await features.listSkills({ signal })).flatMap((entry): OfferedSkill[] => {
      const headline = skillHeadline(entry.frontmatter);
      if (!headline) {
        problems.push(`MCP server "${name}": skill ${entry.uri} has no name or description in its front matter; not offered`);
        return [];
      }
      return [{ ...headline, origin: `mcp:${name}`, uri: entry.uri, source: { kind: 'server', ref: { server: name, features, entry } } }];
    });
  } catch (error) {
    problems.push(`MCP server "${name}": could not list its skills: ${errorMessage(error)}`);
    unlisted.push(name);
    return [];
  }
}
