import { setImmediate as nextTurn } from 'node:timers/promises';

import { RankedTermIndex } from './ranked-term-index';

/** What the index reads of an MCP tool: its name, its description and the names of its parameters. */
export interface SearchableTool {
  readonly name: string;
  /** Indexed when it is a string (a manifest's tool is untyped beyond its name and schema). */
  readonly description?: unknown;
  readonly inputSchema: Readonly<Record<string, unknown>>;
}

/** A tool's indexed text: the words of its name and of its parameters' names, and its description. */
interface ToolText {
  readonly words: string;
  readonly description: string;
}

interface Entry<T> {
  tool: T;
  readonly text: ToolText;
}

/** The fields' boosts, in the order `terms` gives them: name and parameter words weigh twice the description. */
const FIELD_BOOSTS = [2, 1];

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
 * A sliced sync lets the event loop run after this long, once it has gone through at least so many new tool
 * objects in the slice: a change of fewer (a route's manifest, often) is installed before `syncInSlices` returns.
 */
const SLICE_MILLIS = 4;
const SLICE_MIN_TOOLS = 64;

/**
 * A ranked full-text search over MCP tool definitions (BM25+ with prefix matching, as minisearch scores
 * it; docs/adr/0021-tool-search.md), shared by the gateway's `search_tools` and the agent CLI's
 * `ToolSearch` so both rank alike. A tool's name and its parameters' names are split into words
 * (`billing_export_invoice`, `mcp__crm__getLead`, `invoiceId`) and weigh twice its description. A query
 * word of 4 characters or more also matches the words it starts (`invoice` finds `invoices`).
 *
 * `sync` brings the index to a new list of tools: a tool object seen before costs nothing, a new object
 * whose indexed text (name, parameter names, description) is the same as its predecessor's only replaces
 * it, one whose text changed or that is new is (re-)indexed, one that is gone is discarded. So a list
 * (or a route's manifest, reloaded as new objects) that changed in one place is re-indexed in that place
 * only, and searching never indexes. `syncInSlices` does the same work a few milliseconds at a time, and
 * until it is done searches answer from the list before it; the new list replaces it in one step.
 */
export class ToolSearchIndex<T extends SearchableTool> {
  private readonly terms = new RankedTermIndex<Entry<T>>(FIELD_BOOSTS);
  /** The list searched: what the last completed sync installed. */
  private readonly installed = new Map<string, Entry<T>>();
  private wanted: Iterable<T> | undefined;
  private draining = false;
  private drained = Promise.resolve();

  /** Makes the index hold exactly `tools` (unique names) at once. Not while a sliced sync runs. */
  sync(tools: Iterable<T>): void {
    if (this.draining) throw new Error('ToolSearchIndex.sync while a sliced sync runs');
    const steps = this.steps(tools);
    while (!steps.next().done);
  }

  /**
   * `sync` a few milliseconds at a time, the event loop running between slices; searches meanwhile answer
   * from the list before. Called again before it is done, the latest list follows once this one is in.
   */
  syncInSlices(tools: Iterable<T>): Promise<void> {
    this.wanted = tools;
    // A drain with little to do ends before it returns its promise: `draining` tells, not the promise.
    if (!this.draining) this.drained = this.drain();
    return this.drained;
  }

  /** The tools searched now. */
  get size(): number {
    return this.installed.size;
  }

  /**
   * The tools that best match `query`, best first, at most `limit` of them. `accept` leaves tools out
   * before the limit is applied (what a caller may not see never takes a place in the results).
   */
  search(query: string, limit: number, accept: (tool: T) => boolean = () => true): T[] {
    const found = this.terms.search(terms(query), limit, (entry) => this.installed.get(entry.tool.name) === entry && accept(entry.tool));
    return found.map((entry) => entry.tool);
  }

  private async drain(): Promise<void> {
    this.draining = true;
    try {
      while (this.wanted !== undefined) {
        const steps = this.steps(this.wanted);
        this.wanted = undefined;
        let sliceStart = performance.now();
        let inSlice = 0;
        while (!steps.next().done) {
          if (++inSlice < SLICE_MIN_TOOLS || performance.now() - sliceStart < SLICE_MILLIS) continue;
          await nextTurn();
          sliceStart = performance.now();
          inSlice = 0;
        }
      }
    } finally {
      this.draining = false;
    }
  }

  /**
   * The work of one sync, a step per new tool object: new and changed tools are indexed beside the installed
   * list (found by no search yet), then the last step installs the new list and discards what it replaced.
   */
  private *steps(tools: Iterable<T>): Generator<void, void> {
    const next = new Map<string, T>();
    for (const tool of tools) next.set(tool.name, tool);
    const replaced: Array<Entry<T>> = [];
    const indexed: Array<Entry<T>> = [];
    const retargeted: Array<[Entry<T>, T]> = [];
    for (const [name, tool] of next) {
      const held = this.installed.get(name);
      if (held?.tool === tool) continue;
      const text = toolText(tool);
      if (held && sameText(held.text, text)) retargeted.push([held, tool]);
      else {
        if (held) replaced.push(held);
        const entry = { tool, text };
        this.terms.add(entry, [terms(text.words), terms(text.description)]);
        indexed.push(entry);
      }
      yield;
    }
    for (const [entry, tool] of retargeted) entry.tool = tool;
    for (const [name, entry] of this.installed) if (!next.has(name)) replaced.push(entry);
    for (const entry of replaced) {
      this.terms.remove(entry);
      this.installed.delete(entry.tool.name);
    }
    for (const entry of indexed) this.installed.set(entry.tool.name, entry);
  }
}

function toolText(tool: SearchableTool): ToolText {
  const properties = tool.inputSchema.properties;
  const parameterNames = typeof properties === 'object' && properties !== null ? Object.keys(properties) : [];
  return {
    words: [tool.name, ...parameterNames].map(nameWords).join(' '),
    description: typeof tool.description === 'string' ? tool.description : '',
  };
}

function sameText(a: ToolText, b: ToolText): boolean {
  return a.words === b.words && a.description === b.description;
}

/** `mcp__crm__getLead-v2` → `mcp crm get lead v2`: identifiers as the words a query would use. */
function nameWords(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_\-.:/]+/g, ' ')
    .trim();
}

/** A text's words as the index holds them: split at anything but letters and digits, lower case, no stop words. */
function terms(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== '' && !STOP_WORDS.has(word));
}
