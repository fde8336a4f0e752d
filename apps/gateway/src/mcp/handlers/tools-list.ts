import { invalidParams } from '@toolmesh/protocol';
import type { ToolCatalogue, ToolsListForm } from '@toolmesh/registry';

import type { EraErrors } from '../era-errors';
import type { RequestHandler } from './method-handler';

/**
 * `tools/list` (SPEC G8): the in-memory generation's pre-serialized list, in the era's form, a page at a
 * time when it is long (`mcp.catalogue.toolsListPageSize`). Only a cold, empty catalogue makes it wait
 * for one load. A cursor this list did not issue (or one outdated by a change) is -32602: list again.
 */
export function toolsListHandler(catalogue: ToolCatalogue, form: ToolsListForm, errors: EraErrors): RequestHandler {
  return async (params, _context, id) => {
    const { cursor } = params;
    if (cursor !== undefined && typeof cursor !== 'string')
      return invalidParams(id, '"cursor" must be a string from a previous tools/list');
    const generation = catalogue.current() ?? (await catalogue.ensureLoaded());
    if (!generation) return errors.registryUnavailable(id);
    const page = generation.toolsListPage(form, cursor);
    return page ? { result: page } : invalidParams(id, 'this cursor was not issued for the current tool list; list again without one');
  };
}
