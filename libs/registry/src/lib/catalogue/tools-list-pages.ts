import { createHash } from 'node:crypto';

import { RawJson } from '@toolmesh/protocol';

/**
 * Cursors are opaque to clients (the spec's rule); inside, the list's tag and the page's number, so any
 * replica holding the same list can read them, and none serves a page of another list for it.
 */
const CURSOR_PREFIX = 'toolmesh-page:';

/** A list's `tools/list` pages, and the tag its cursors carry: a digest of the whole list. */
export interface ToolsListPages {
  readonly tag: string;
  readonly pages: readonly RawJson[];
}

/**
 * `tools/list` results of one tool list, page by page, each serialized once: `{"tools":[...],
 * "nextCursor":"..."}`, each with the whole list's `_meta`. A list that fits in one page is the whole-list result itself. The order is the
 * catalogue's (route order, then manifest order), the same on every replica that holds the same list.
 * Each cursor names its list by a digest of it: a walk over a list that changed between two pages (a tool
 * added or removed, on this replica or the next) is refused rather than served a page of the new list,
 * which would repeat or skip tools without a word.
 */
export function buildToolsListPages(whole: RawJson, tools: readonly object[], pageSize: number): ToolsListPages {
  if (tools.length <= pageSize) return { tag: '', pages: [whole] };
  const tag = createHash('sha256').update(whole.bytes).digest('base64url').slice(0, 16);
  const pages: RawJson[] = [];
  for (let start = 0; start < tools.length; start += pageSize) {
    const next = start + pageSize < tools.length ? { nextCursor: pageCursor(tag, pages.length + 1) } : {};
    pages.push(new RawJson(JSON.stringify({ tools: tools.slice(start, start + pageSize), ...next }), whole.meta));
  }
  return { tag, pages };
}

function pageCursor(tag: string, index: number): string {
  return Buffer.from(`${CURSOR_PREFIX}${tag}:${index}`).toString('base64url');
}

/** The page a cursor names, or `undefined` when this list has no such page (a foreign cursor, or one of a list since changed). */
export function pageAt({ tag, pages }: ToolsListPages, cursor: string | undefined): RawJson | undefined {
  if (cursor === undefined) return pages[0];
  const match = new RegExp(`^${CURSOR_PREFIX}([\\w-]{16}):([1-9]\\d{0,5})$`).exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  return match && match[1] === tag ? pages[Number(match[2])] : undefined;
}
