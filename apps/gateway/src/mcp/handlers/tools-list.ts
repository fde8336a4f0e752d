import { invalidParams, registryUnavailable } from '@toolmesh/protocol';
import type { ToolCatalogue } from '@toolmesh/registry';
import type { RequestHandler } from './method-handler';

/**
 * `tools/list` (SPEC G8): the in-memory generation's pre-serialized list, whole. Only a cold, empty
 * catalogue makes it wait for one load. The gateway hands out no cursors, so any cursor is invalid.
 */
export function toolsListHandler(catalogue: ToolCatalogue): RequestHandler {
  return async (params, _context, id) => {
    if (params.cursor !== undefined) return invalidParams(id, 'this server returns all tools at once and issues no cursors; omit "cursor"');
    const generation = catalogue.current() ?? (await catalogue.ensureLoaded());
    return generation ? { result: generation.toolsListResult } : registryUnavailable(id);
  };
}
