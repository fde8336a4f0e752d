import { invalidParams } from '@toolmesh/protocol';
import type { CatalogueGeneration, ToolCatalogue, ToolsListForm } from '@toolmesh/registry';
import type { AuthenticatedCaller } from '@toolmesh/transport-http/server';

import type { CapabilityViews } from '../caller-capabilities';
import type { EraErrors } from '../era-errors';
import type { RequestHandler } from './method-handler';

/** The catalogue as one caller may see it (ToolAuthorization.visibleCatalogue). */
export type CatalogueView = (generation: CatalogueGeneration, caller: AuthenticatedCaller | undefined) => CatalogueGeneration;

/**
 * `tools/list` (SPEC G8): the in-memory generation's pre-serialized list, in the era's form, a page at a
 * time when it is long (`mcp.catalogue.toolsListPageSize`). Only a cold, empty catalogue makes it wait
 * for one load. A cursor this list did not issue (or one outdated by a change) is -32602: list again.
 * With a `view` (authentication on), each caller is shown only the tools it may call (SPEC G27); and only
 * those its declared capabilities allow (`capabilities`, issue 44).
 */
export function toolsListHandler(
  catalogue: ToolCatalogue,
  form: ToolsListForm,
  errors: EraErrors,
  capabilities: CapabilityViews,
  view?: CatalogueView,
): RequestHandler {
  return async (params, context, id) => {
    const { cursor } = params;
    if (cursor !== undefined && typeof cursor !== 'string')
      return invalidParams(id, '"cursor" must be a string from a previous tools/list');
    const current = catalogue.current() ?? (await catalogue.ensureLoaded());
    if (!current) return errors.registryUnavailable(id);
    const generation = capabilities.visible(current, params, context);
    const page = (view ? view(generation, context.caller) : generation).toolsListPage(form, cursor);
    return page ? { result: page } : invalidParams(id, 'this cursor was not issued for the current tool list; list again without one');
  };
}
