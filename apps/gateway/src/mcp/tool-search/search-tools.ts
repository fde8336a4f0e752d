import { RawJson } from '@toolmesh/protocol';
import { publicToolIn, type ToolsListForm } from '@toolmesh/registry';

import { AuditDecisions } from '../../audit/audit-event';
import { auditOf } from '../../audit/audit-record';
import type { RateLimitAdmission } from '../../execution/call-admission';
import type { CapabilityViews } from '../caller-capabilities';
import type { EraErrors } from '../era-errors';
import type { RequestHandler } from '../handlers/method-handler';
import { refusedCall } from '../handlers/tools-call';
import type { CatalogueSearch } from './catalogue-search';

export const SEARCH_TOOLS_NAME = 'search_tools';
const DEFAULT_LIMIT = 10;
const MAX_LIMIT = 50;
const MAX_QUERY_CHARS = 1_000;

/** The gateway's own tool (`mcp.toolSearch`), listed first in `tools/list` beside the catalogue's. */
const SEARCH_TOOLS_TOOL = {
  name: SEARCH_TOOLS_NAME,
  title: 'Search tools',
  description:
    'Finds this gateway\'s tools by what they do. Give a few words of the task (e.g. "export invoices as csv"); the best ' +
    'matches come back best first, each as its full tool definition (name, description, inputSchema, annotations), ' +
    'ready to call with tools/call.',
  inputSchema: {
    type: 'object',
    properties: {
      query: { type: 'string', minLength: 1, maxLength: MAX_QUERY_CHARS, description: 'What the tool should do, or part of its name.' },
      limit: { type: 'integer', minimum: 1, maximum: MAX_LIMIT, description: `Most tools to return (default ${DEFAULT_LIMIT}).` },
    },
    required: ['query'],
    additionalProperties: false,
  },
  outputSchema: {
    type: 'object',
    properties: { tools: { type: 'array', items: { type: 'object' } } },
    required: ['tools'],
  },
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
};

const LISTED_FIRST = JSON.stringify(SEARCH_TOOLS_TOOL);
const LIST_START = '{"tools":[';

/**
 * `tools/list` with `search_tools` added at the start of its first page, the rest of the list byte for
 * byte as without it. A catalogue that has a tool of that name keeps its own, and no search is offered.
 * Each page is rewritten once and kept while its generation lives.
 */
export function listingSearchTools(toolsList: RequestHandler, search: CatalogueSearch): RequestHandler {
  const withSearch = new WeakMap<RawJson, RawJson>();
  return async (params, context, id) => {
    const answer = await toolsList(params, context, id);
    if (params.cursor !== undefined || !('result' in answer) || !(answer.result instanceof RawJson) || shadowed(search.current()))
      return answer;
    const page = answer.result;
    let listed = withSearch.get(page);
    if (listed === undefined) {
      const rest = page.json.slice(LIST_START.length);
      listed = new RawJson(`${LIST_START}${LISTED_FIRST}${rest.startsWith(']') ? '' : ','}${rest}`, page.meta);
      withSearch.set(page, listed);
    }
    return { result: listed };
  };
}

/**
 * `tools/call` of `search_tools` answered from the catalogue in memory, in the era's form of the tools
 * (G30); every other call goes to `toolsCall` untouched. Bad arguments are an `isError` result the model
 * can read, as for any tool. A search counts against the rate limits as a call of a tool named
 * `search_tools` does (the caller's, and a `perTool` rule matching it): each one scans the catalogue. It
 * finds only what the caller's `tools/list` shows it (`capabilities`, and the search's own visibility).
 */
export function callingSearchTools(
  toolsCall: RequestHandler,
  search: CatalogueSearch,
  form: ToolsListForm,
  errors: EraErrors,
  capabilities: CapabilityViews,
  limit?: RateLimitAdmission,
): RequestHandler {
  const searchTools: RequestHandler = async (params, context, id) => {
    const generation = await search.generation();
    if (!generation) return errors.registryUnavailable(id);
    if (shadowed(generation)) return toolsCall(params, context, id);
    const refusal = await limit?.(SEARCH_TOOLS_NAME, context);
    if (refusal) return { answered: refusedCall(id, SEARCH_TOOLS_NAME, refusal, errors) };
    const args = readArguments(params.arguments);
    auditOf(context)?.decide(typeof args === 'string' ? AuditDecisions.invalidArguments : AuditDecisions.validArguments);
    if (typeof args === 'string')
      return { result: { content: [{ type: 'text', text: `invalid arguments for search_tools: ${args}` }], isError: true } };
    const shown = capabilities.visible(generation, params, context);
    const tools = search.search(shown, args.query, args.limit, context).map((tool) => publicToolIn(form, tool));
    return { result: { content: [{ type: 'text', text: JSON.stringify({ tools }) }], structuredContent: { tools }, isError: false } };
  };
  // Not async: every other call goes on with no promise of this layer's own (docs/adr/0005-gateway-hot-path.md).
  return (params, context, id) => (params.name === SEARCH_TOOLS_NAME ? searchTools : toolsCall)(params, context, id);
}

function shadowed(generation: { readonly tools: ReadonlyMap<string, unknown> } | undefined): boolean {
  return generation?.tools.has(SEARCH_TOOLS_NAME) ?? false;
}

/** `query` and `limit`, or what is wrong with them. */
function readArguments(args: unknown): { query: string; limit: number } | string {
  const { query, limit = DEFAULT_LIMIT } = (typeof args === 'object' && args !== null ? args : {}) as Record<string, unknown>;
  if (typeof query !== 'string' || query.trim() === '') return '"query" must be a non-empty string';
  if (query.length > MAX_QUERY_CHARS) return `"query" must be at most ${MAX_QUERY_CHARS} characters`;
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT)
    return `"limit" must be an integer from 1 to ${MAX_LIMIT}`;
  return { query, limit };
}
