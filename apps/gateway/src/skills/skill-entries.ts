import type { SkillEntry } from '@toolmesh/mcp-client';

import { mimeTypeOf, type Skill } from './skill';
import { skillDirectoryUri, skillFileUri } from './skill-uris';

/** A skill as `skills/list` and `skills/get` show it (SEP-2640 §Skill Entry): front matter verbatim, every file once. */
export function skillEntry(skill: Skill): object {
  return {
    uri: skillFileUri(skill.skillPath, 'SKILL.md'),
    frontmatter: skill.frontmatter,
    resources: skill.files.map((file) => ({ uri: skillFileUri(skill.skillPath, file.path), digest: file.digest, size: file.size })),
  };
}

/** A skill's SKILL.md as `resources/list` shows it (SEP-2640 §Resource Metadata): the front matter's name and description. */
export function skillResource(skill: Skill): object {
  const { name, description } = skill.frontmatter as { name: string; description: string };
  return { uri: skillFileUri(skill.skillPath, 'SKILL.md'), name, description, mimeType: 'text/markdown', size: skill.files[0].size };
}

/**
 * The direct children of a folder of a skill (`''`: its root) as `resources/directory/read` lists them:
 * files with their MIME type, sub-folders as `inode/directory`; undefined when the skill has no such folder.
 */
export function directoryChildren(skill: Skill, folder: string): object[] | undefined {
  return childrenOf(skillDirectoryUri(skill.skillPath, ''), skill.files, folder);
}

/**
 * The same for a skill an MCP server behind the gateway lists (issue 49): read from its entry's `resources`
 * alone, so nothing is forwarded; undefined when `uri` is no folder of it (or its files are `dynamic`).
 */
export function entryDirectory(entry: SkillEntry, uri: string): object[] | undefined {
  const root = entry.uri.replace(/\/SKILL\.md$/, '');
  if (entry.resources === 'dynamic' || (uri !== root && !uri.startsWith(`${root}/`))) return undefined;
  const files = entry.resources
    .filter((file) => file.uri.startsWith(`${root}/`))
    .map((file) => {
      const path = file.uri.slice(root.length + 1);
      return { path, size: file.size, mimeType: mimeTypeOf(path) };
    });
  return childrenOf(root, files, uri === root ? '' : uri.slice(root.length + 1));
}

function childrenOf(
  root: string,
  files: ReadonlyArray<{ readonly path: string; readonly size: number; readonly mimeType: string }>,
  folder: string,
): object[] | undefined {
  const prefix = folder === '' ? '' : `${folder}/`;
  const children = new Map<string, object>();
  for (const file of files) {
    if (!file.path.startsWith(prefix)) continue;
    const [child, ...deeper] = file.path.slice(prefix.length).split('/');
    const uri = `${root}/${prefix}${child}`;
    if (!children.has(uri))
      children.set(
        uri,
        deeper.length === 0
          ? { uri, name: child, mimeType: file.mimeType, size: file.size }
          : { uri, name: child, mimeType: 'inode/directory' },
      );
  }
  return children.size === 0 ? undefined : [...children.values()];
}

/** A skill file's contents for `resources/read`: text when its type is textual and its bytes UTF-8, else base64. */
export function fileContents(uri: string, file: Skill['files'][number]): object {
  const text = isTextual(file.mimeType) ? utf8(file.bytes) : undefined;
  return text === undefined
    ? { uri, mimeType: file.mimeType, blob: file.bytes.toString('base64') }
    : { uri, mimeType: file.mimeType, text };
}

function isTextual(mimeType: string): boolean {
  return mimeType.startsWith('text/') || ['application/json', 'application/yaml', 'application/xml', 'image/svg+xml'].includes(mimeType);
}

function utf8(bytes: Buffer): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return undefined;
  }
}
