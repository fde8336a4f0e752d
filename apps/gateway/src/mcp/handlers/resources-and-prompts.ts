import { invalidParams, McpMethod } from '@toolmesh/protocol';

import type { FederatedFeatures, FederatedLists, Forwarded } from '../../upstreams/federated-features';
import type { EraErrors } from '../era-errors';
import type { HandlerResult, RequestHandler } from './method-handler';

/** Cursors are opaque to clients; inside, the offset of the page, so any replica holding the same lists can read them. */
const CURSOR_PREFIX = 'toolmesh-offset:';

/**
 * `resources/list`, `resources/templates/list`, `resources/read`, `prompts/list` and `prompts/get` of the
 * `mcpServer` bundles' servers (issue 28), for either era (built with its errors). Lists are paged as
 * `tools/list` is (`pageSize`); a read or a get goes to its server (federated-features.ts), and what the
 * server answers comes back whole, or its error as the era allows.
 */
export function resourcesAndPromptsHandlers(
  features: FederatedFeatures,
  errors: EraErrors,
  pageSize: number,
): ReadonlyArray<[string, RequestHandler]> {
  const list =
    (member: 'resources' | 'resourceTemplates' | 'prompts'): RequestHandler =>
    async (params, _context, id) => {
      const { cursor } = params;
      if (cursor !== undefined && typeof cursor !== 'string') return invalidParams(id, `"cursor" must be a string from a previous list`);
      const page = pageOf((await features.lists())[member], cursor, pageSize);
      if (page === undefined) return invalidParams(id, 'this cursor was not issued for the current list; list again without one');
      return { result: { [member]: page.items, ...(page.nextCursor !== undefined && { nextCursor: page.nextCursor }) } };
    };
  const answer = <T extends object>(
    id: Parameters<RequestHandler>[2],
    forwarded: Forwarded<T>,
    notFound: (candidates?: readonly string[]) => HandlerResult,
    uri?: string,
  ) =>
    'result' in forwarded
      ? { result: forwarded.result }
      : 'notFound' in forwarded
        ? notFound(forwarded.candidates)
        : errors.upstreamFailed(id, forwarded.failed, uri);

  const read: RequestHandler = async (params, context, id) => {
    const { uri } = params;
    if (typeof uri !== 'string') return invalidParams(id, '"uri" must be a string');
    return answer(id, await features.readResource(uri, context), (candidates) => errors.resourceNotFound(id, uri, candidates), uri);
  };
  const get: RequestHandler = async (params, context, id) => {
    const { name, arguments: args } = params;
    if (typeof name !== 'string') return invalidParams(id, '"name" must be a string');
    if (args !== undefined && !isStringRecord(args)) return invalidParams(id, '"arguments" must be an object of strings');
    return answer(id, await features.getPrompt(name, args, context), () =>
      invalidParams(id, `no prompt named ${JSON.stringify(name.slice(0, 64))}`),
    );
  };
  return [
    [McpMethod.ResourcesList, list('resources')],
    [McpMethod.ResourceTemplatesList, list('resourceTemplates')],
    [McpMethod.ResourcesRead, read],
    [McpMethod.PromptsList, list('prompts')],
    [McpMethod.PromptsGet, get],
  ];
}

/** The page a cursor names (none: the first), or undefined for a cursor these lists did not issue. */
function pageOf(
  items: FederatedLists['resources'],
  cursor: string | undefined,
  pageSize: number,
): { items: readonly object[]; nextCursor?: string } | undefined {
  let offset = 0;
  if (cursor !== undefined) {
    const match = new RegExp(`^${CURSOR_PREFIX}([1-9]\\d{0,8})$`).exec(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (match === null || Number(match[1]) >= items.length) return undefined;
    offset = Number(match[1]);
  }
  const end = offset + pageSize;
  const next = end < items.length ? Buffer.from(`${CURSOR_PREFIX}${end}`).toString('base64url') : undefined;
  return { items: items.slice(offset, end), ...(next !== undefined && { nextCursor: next }) };
}

function isStringRecord(value: unknown): value is Record<string, string> {
  return (
    typeof value === 'object' && value !== null && !Array.isArray(value) && Object.values(value).every((entry) => typeof entry === 'string')
  );
}
