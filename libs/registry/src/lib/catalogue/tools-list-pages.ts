import { RawJson } from '@toolmesh/protocol';

/** Cursors are opaque to clients (the spec's rule); inside, the page's number, so any replica can read them. */
const CURSOR_PREFIX = 'toolmesh-page:';

/**
 * `tools/list` results of one tool list, page by page, each serialized once: `{"tools":[...],
 * "nextCursor":"..."}`. A list that fits in one page is the whole-list result itself. The order is the
 * catalogue's (route order, then manifest order), the same on every replica that holds the same list.
 */
export function buildToolsListPages(whole: RawJson, tools: readonly object[], pageSize: number): readonly RawJson[] {
  if (tools.length <= pageSize) return [whole];
  const pages: RawJson[] = [];
  for (let start = 0; start < tools.length; start += pageSize) {
    const next = start + pageSize < tools.length ? { nextCursor: pageCursor(pages.length + 1) } : {};
    pages.push(new RawJson(JSON.stringify({ tools: tools.slice(start, start + pageSize), ...next })));
  }
  return pages;
}

function pageCursor(index: number): string {
  return Buffer.from(`${CURSOR_PREFIX}${index}`).toString('base64url');
}

/** The page a cursor names, or `undefined` when this list has no such page (a foreign or outdated cursor). */
export function pageAt(pages: readonly RawJson[], cursor: string | undefined): RawJson | undefined {
  if (cursor === undefined) return pages[0];
  const match = new RegExp(`^${CURSOR_PREFIX}([1-9]\\d{0,5})$`).exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  return match ? pages[Number(match[1])] : undefined;
}
