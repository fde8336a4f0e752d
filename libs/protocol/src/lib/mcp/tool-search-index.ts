import MiniSearch from 'minisearch';

/** What the index reads of an MCP tool: its name, its description and the names of its parameters. */
export interface SearchableTool {
  readonly name: string;
  /** Indexed when it is a string (a manifest's tool is untyped beyond its name and schema). */
  readonly description?: unknown;
  readonly inputSchema: Readonly<Record<string, unknown>>;
}

interface ToolDocument {
  readonly name: string;
  /** The words of its name and of its parameters' names. */
  readonly words: string;
  readonly description: string;
}

/** Words too common in tool descriptions to tell tools apart; left out of the index and of queries. */
const STOP_WORDS = new Set([
  'a',
  'an',
  'and',
  'as',
  'at',
  'by',
  'for',
  'from',
  'in',
  'into',
  'is',
  'it',
  'of',
  'on',
  'or',
  'the',
  'to',
  'with',
]);

/**
 * A ranked full-text search over MCP tool definitions (BM25 with prefix matching, by minisearch;
 * docs/adr/0021-tool-search.md), shared by the gateway's `search_tools` and the agent CLI's `ToolSearch`
 * so both rank alike. A tool's name and its parameters' names are split into words
 * (`billing_export_invoice`, `mcp__crm__getLead`, `invoiceId`) and weigh twice its description. A query
 * word of 4 characters or more also matches the words it starts (`invoice` finds `invoices`). There is no
 * fuzzy matching: it cost a third more per search (docs/benchmarks.md, "Gateway search") and a model's
 * query has few typos. Each field is one more pass over its postings, so names and parameters share one.
 *
 * `sync` brings the index to a new list of tools: a tool object seen before costs nothing, a new object
 * whose indexed text (name, parameter names, description) is the same as its predecessor's only replaces
 * it, one whose text changed or that is new is (re-)indexed, one that is gone is discarded. So a list
 * (or a route's manifest, reloaded as new objects) that changed in one place is re-indexed in that place
 * only, and searching never indexes.
 */
export class ToolSearchIndex<T extends SearchableTool> {
  private readonly index = new MiniSearch<ToolDocument>({
    idField: 'name',
    fields: ['words', 'description'],
    processTerm: (term) => {
      const lower = term.toLowerCase();
      return STOP_WORDS.has(lower) ? null : lower;
    },
    searchOptions: { boost: { words: 2 }, prefix: (term) => term.length >= 4, combineWith: 'OR' },
  });
  private readonly tools = new Map<string, { tool: T; document: ToolDocument }>();

  /** Makes the index hold exactly `tools` (unique names); only what changed since the last sync is touched. */
  sync(tools: Iterable<T>): void {
    const next = new Map<string, T>();
    for (const tool of tools) next.set(tool.name, tool);
    const stale: string[] = [];
    const fresh: ToolDocument[] = [];
    for (const name of this.tools.keys()) if (!next.has(name)) stale.push(name);
    for (const [name, tool] of next) {
      const held = this.tools.get(name);
      if (held?.tool === tool) continue;
      const document = toolDocument(tool);
      if (held && sameText(held.document, document)) {
        held.tool = tool;
        continue;
      }
      if (held) stale.push(name);
      fresh.push(document);
      this.tools.set(name, { tool, document });
    }
    if (stale.length > 0) this.index.discardAll(stale);
    for (const name of stale) if (!next.has(name)) this.tools.delete(name);
    this.index.addAll(fresh);
  }

  get size(): number {
    return this.tools.size;
  }

  /**
   * The tools that best match `query`, best first, at most `limit` of them. `accept` leaves tools out
   * before the limit is applied (what a caller may not see never takes a place in the results).
   */
  search(query: string, limit: number, accept: (tool: T) => boolean = () => true): T[] {
    const found: T[] = [];
    for (const result of this.index.search(query)) {
      const tool = this.tools.get(result.id as string)?.tool;
      if (tool === undefined || !accept(tool)) continue;
      found.push(tool);
      if (found.length === limit) break;
    }
    return found;
  }
}

function toolDocument(tool: SearchableTool): ToolDocument {
  const properties = tool.inputSchema.properties;
  const parameterNames = typeof properties === 'object' && properties !== null ? Object.keys(properties) : [];
  return {
    name: tool.name,
    words: [tool.name, ...parameterNames].map(nameWords).join(' '),
    description: typeof tool.description === 'string' ? tool.description : '',
  };
}

function sameText(a: ToolDocument, b: ToolDocument): boolean {
  return a.words === b.words && a.description === b.description;
}

/** `mcp__crm__getLead-v2` → `mcp crm get lead v2`: identifiers as the words a query would use. */
function nameWords(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_\-.:/]+/g, ' ')
    .trim();
}
