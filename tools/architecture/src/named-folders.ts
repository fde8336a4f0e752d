import { proseLines } from './markdown-headings';

/**
 * The folders a Markdown page does not name, for the architecture-map test. A folder is named by its path in a
 * code span outside a fence, a trailing slash optional: whole from the repository root
 * (`apps/gateway/src/call/`), or below a folder its section names whole, as the agent CLI's floors table names
 * `tools/builtin/` in the section that names `apps/agent-cli/src`. A section runs from one heading to the next,
 * so a relative name is read where its reader meets it, not against any project on the page.
 */
export function unnamedFolders(markdown: string, folders: readonly string[]): string[] {
  const named = new Set(sectionsOf(markdown).flatMap((section) => foldersNamedIn(section, folders)));
  return folders.filter((folder) => !named.has(folder));
}

function foldersNamedIn(section: string[], folders: readonly string[]): string[] {
  const paths = section.flatMap((line) => [...line.matchAll(/`([^`]+)`/g)].map(([, span]) => span.replace(/\/+$/, '')));
  const bases = paths.filter((base) => folders.some((folder) => folder === base || folder.startsWith(`${base}/`)));
  return folders.filter((folder) => paths.some((named) => named === folder || bases.some((base) => `${base}/${named}` === folder)));
}

function sectionsOf(markdown: string): string[][] {
  const sections: string[][] = [[]];
  for (const line of proseLines(markdown)) {
    if (/^#{1,6}\s/.test(line)) sections.push([]);
    sections[sections.length - 1].push(line);
  }
  return sections;
}
