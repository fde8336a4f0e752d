import type { SkillEntry } from '@toolmesh/mcp-client';
import { invalidParams, McpMethod } from '@toolmesh/protocol';
import type { RequestContext } from '@toolmesh/transport-http/server';

import type { SkillCatalogue } from '../../skills/skill-catalogue';
import { entryDirectory, fileContents, skillEntry, skillResource } from '../../skills/skill-entries';
import { isSkillUri } from '../../skills/skill-uris';
import { SkillsMethod } from '../../skills/skills-protocol';
import type { EraErrors } from '../era-errors';
import type { RequestHandler } from './method-handler';
import { pageOf } from './resources-and-prompts';

/** A `resources/list` cursor past the skills' SKILL.md pages: the MCP servers' resources follow, from their first page. */
const AFTER_SKILLS = Buffer.from('toolmesh-skills:end').toString('base64url');
/** The prefix of a cursor into the skills' own SKILL.md pages, apart from the MCP servers' cursors. */
const SKILLS_CURSOR = 'skills.';

/** Whose skills the methods serve: the gateway's own, and those the MCP servers behind it list (federated-features.ts). */
export interface ServedSkills {
  readonly own?: SkillCatalogue;
  readonly federated?: () => Promise<readonly SkillEntry[]>;
}

/**
 * The Skills extension (SEP-2640, issue 49) for either era, over the gateway's own skills and then the MCP
 * servers' (listed as their servers list them, namespaced as their resources are: a URI an own skill
 * already has is left out; files read from their server through `resources/read`; `skills/get` and
 * `resources/directory/read` answered from the listing, so nothing else is forwarded): `skills/list`
 * (paged as `tools/list`; an entry is never split), `skills/get` (-32602 for a URI that is no skill, in both
 * eras, as the extension says), `resources/directory/read`, and the resources methods the extension rides on,
 * wrapped around the MCP servers' (`served`, when some bundle is one): `resources/list` gives every visible
 * SKILL.md first, then the servers' resources; `resources/read` answers a skill file, and passes any other
 * URI on; the templates are the servers'. Every answer is for the caller's scopes (skill-catalogue.ts).
 */
export function skillsMethods(
  { own, federated }: ServedSkills,
  served: ReadonlyArray<[string, RequestHandler]>,
  errors: EraErrors,
  pageSize: number,
): Array<[string, RequestHandler]> {
  const underlying = new Map(served);
  const uriOf = (params: Record<string, unknown>): string | undefined => (typeof params.uri === 'string' ? params.uri : undefined);
  const cursorOf = (params: Record<string, unknown>): string | undefined | false =>
    params.cursor === undefined ? undefined : typeof params.cursor === 'string' ? params.cursor : false;

  const ownSkills = async (context: RequestContext) => (own === undefined ? [] : own.visible(context.caller));
  /** Every skill entry this caller may see: the gateway's own first, then the servers' whose URI no own skill has. */
  const entries = async (context: RequestContext): Promise<ReadonlyArray<{ readonly uri: string }>> => {
    const mine = (await ownSkills(context)).map(skillEntry) as Array<{ uri: string }>;
    const theirs = federated === undefined ? [] : await federated();
    const taken = new Set(mine.map((entry) => entry.uri));
    return [...mine, ...theirs.filter((entry) => !taken.has(entry.uri))];
  };

  const list: RequestHandler = async (params, context, id) => {
    const cursor = cursorOf(params);
    if (cursor === false) return invalidParams(id, '"cursor" must be a string from a previous list');
    const page = pageOf(await entries(context), cursor, pageSize);
    if (page === undefined) return invalidParams(id, 'this cursor was not issued for the current list; list again without one');
    return { result: { skills: page.items, ...(page.nextCursor !== undefined && { nextCursor: page.nextCursor }) } };
  };
  const get: RequestHandler = async (params, context, id) => {
    const uri = uriOf(params);
    if (uri === undefined) return invalidParams(id, '"uri" must be a string');
    const entry = (await entries(context)).find((each) => each.uri === uri);
    if (entry === undefined) return invalidParams(id, `No skill is served at ${uri.slice(0, 200)}; skills/list names those there are`);
    return { result: { skill: entry } };
  };
  const directoryRead: RequestHandler = async (params, context, id) => {
    const uri = uriOf(params);
    const cursor = cursorOf(params);
    if (uri === undefined) return invalidParams(id, '"uri" must be a string');
    if (cursor === false) return invalidParams(id, '"cursor" must be a string from a previous read');
    const children =
      (await own?.directory(uri, context.caller)) ??
      (federated === undefined ? [] : await federated()).map((entry) => entryDirectory(entry, uri)).find((found) => found !== undefined);
    if (children === undefined) return invalidParams(id, `${uri.slice(0, 200)} is not a directory of a skill served here`);
    const page = pageOf(children, cursor, pageSize);
    if (page === undefined) return invalidParams(id, 'this cursor was not issued for this directory; read it again without one');
    return { result: { resources: page.items, ...(page.nextCursor !== undefined && { nextCursor: page.nextCursor }) } };
  };
  const resourcesList: RequestHandler = async (params, context, id) => {
    const more = underlying.get(McpMethod.ResourcesList);
    const cursor = cursorOf(params);
    if (cursor === false) return invalidParams(id, '"cursor" must be a string from a previous list');
    if (more !== undefined && cursor === AFTER_SKILLS) return more({ ...params, cursor: undefined }, context, id);
    if (more !== undefined && cursor !== undefined && !cursor.startsWith(SKILLS_CURSOR)) return more(params, context, id);
    const listed = (await ownSkills(context)).map(skillResource);
    if (listed.length === 0 && more !== undefined) return more(params, context, id);
    const page = pageOf(listed, cursor?.slice(SKILLS_CURSOR.length), pageSize);
    if (page === undefined) return invalidParams(id, 'this cursor was not issued for the current list; list again without one');
    const next = page.nextCursor !== undefined ? `${SKILLS_CURSOR}${page.nextCursor}` : more !== undefined ? AFTER_SKILLS : undefined;
    return { result: { resources: page.items, ...(next !== undefined && { nextCursor: next }) } };
  };
  const resourcesRead: RequestHandler = async (params, context, id) => {
    const uri = uriOf(params);
    const file = uri === undefined ? undefined : await own?.file(uri, context.caller);
    if (uri !== undefined && file !== undefined) return { result: { contents: [fileContents(uri, file)] } };
    const more = underlying.get(McpMethod.ResourcesRead);
    if (more !== undefined) return more(params, context, id);
    if (uri === undefined) return invalidParams(id, '"uri" must be a string');
    // A skill file not served is -32602 in both eras (SEP-2640 §Error Handling); another URI, as the era says.
    return isSkillUri(uri) ? invalidParams(id, `No skill file is served at ${uri.slice(0, 200)}`) : errors.resourceNotFound(id, uri);
  };
  const templates: RequestHandler =
    underlying.get(McpMethod.ResourceTemplatesList) ?? (async () => ({ result: { resourceTemplates: [] } }));
  return [
    ...served,
    [McpMethod.ResourcesList, resourcesList],
    [McpMethod.ResourceTemplatesList, templates],
    [McpMethod.ResourcesRead, resourcesRead],
    [SkillsMethod.List, list],
    [SkillsMethod.Get, get],
    [SkillsMethod.DirectoryRead, directoryRead],
  ];
}
