import { createHash } from 'node:crypto';

import { CATALOGUE_ETAG_META_KEY, RawJson } from '@toolmesh/protocol';

import { publicToolIn, type ToolDefinition } from '../model/tool-definition';
import { buildToolsListPages, pageAt, type ToolsListPages } from './tools-list-pages';

/** Which form of the tool list: as the manifests say (2026), or with wrapped output schemas (2025). */
export type ToolsListForm = 'modern' | 'legacy';

/**
 * One immutable state of the catalogue. The request path reads it without I/O; a refresh builds a new
 * generation and swaps it in whole, so a request sees one consistent catalogue from start to end. Per-
 * generation caches (compiled validators) key on the generation or its tool objects and die with it.
 */
export class CatalogueGeneration {
  /**
   * By the name callers use, the tool's `publicTool.name`: its catalogue name, except in a gateway's curated
   * view, which may show a tool under an operator's alias while the tool keeps its own name for the rest.
   */
  readonly tools: ReadonlyMap<string, ToolDefinition>;
  /** `{"tools":[...]}`, serialized and encoded once, so `tools/list` writes its bytes whatever its size; its `_meta` (the ETag) beside it. */
  readonly toolsListResult: RawJson;
  /**
   * The same for 2025 clients: a tool whose `outputSchema` is not an object's shows it wrapped, as its
   * results are (ToolOutput). The very same bytes when no tool needs that.
   */
  readonly legacyToolsListResult: RawJson;
  readonly createdAt = new Date();

  private readonly pages: Readonly<Record<ToolsListForm, ToolsListPages>>;

  /** `pageSize`: most tools in one `tools/list` page; a larger list is paged with cursors. */
  constructor(
    readonly number: number,
    tools: readonly ToolDefinition[],
    pageSize = Number.POSITIVE_INFINITY,
  ) {
    this.tools = new Map(tools.map((tool) => [tool.publicTool.name, tool]));
    const modern = tools.map((tool) => tool.publicTool);
    const modernJson = JSON.stringify({ tools: modern });
    this.etag = createHash('sha256').update(modernJson).digest('base64url');
    const meta = { [CATALOGUE_ETAG_META_KEY]: this.etag };
    this.toolsListResult = new RawJson(modernJson, meta);
    const wraps = tools.some((tool) => tool.output?.wrapsForLegacy);
    const legacy = wraps ? tools.map((tool) => publicToolIn('legacy', tool)) : modern;
    this.legacyToolsListResult = wraps ? new RawJson(JSON.stringify({ tools: legacy }), meta) : this.toolsListResult;
    const modernPages = buildToolsListPages(this.toolsListResult, modern, pageSize);
    this.pages = { modern: modernPages, legacy: wraps ? buildToolsListPages(this.legacyToolsListResult, legacy, pageSize) : modernPages };
  }

  /**
   * The list's entity tag (issue 46): a digest of the tool list (each tool's definition hash included),
   * computed once with the generation. Every page's `_meta` carries it, `toolBundles` sends it as its
   * ETag; a new generation with the same list has the same tag, so it changes when the list does and
   * replicas serving the same list agree on it.
   */
  readonly etag: string;

  /** One page of `tools/list` in the form an era shows; `undefined` for a cursor this list did not issue. */
  toolsListPage(form: ToolsListForm, cursor: string | undefined): RawJson | undefined {
    return pageAt(this.pages[form], cursor);
  }

  /** A digest of the tool list, to tell replicas' lists apart without sending them (SPEC G21): its ETag. */
  get listDigest(): string {
    return this.etag;
  }

  get size(): number {
    return this.tools.size;
  }

  /** Bytes of the serialized tool list, the measure the catalogue's size cap applies to. */
  get serializedBytes(): number {
    return this.toolsListResult.bytes.length;
  }
}
