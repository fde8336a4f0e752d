import type { ToolCatalogue } from '@toolmesh/registry';
import type { RequestHandler } from '../../handlers/method-handler';

/**
 * `tools/call` of the 2025 era: the call both eras share, with the `structuredContent` of a tool whose
 * `outputSchema` is not an object's wrapped as `{"result": value}`, which 2025 clients require and which
 * matches the schema they were shown (the SDK's rule, SPEC G22).
 */
export function legacyToolsCallHandler(catalogue: ToolCatalogue, call: RequestHandler): RequestHandler {
  return async (params, context, id) => {
    const outcome = await call(params, context, id);
    if (!('result' in outcome) || typeof params.name !== 'string') return outcome;
    const result = outcome.result as { structuredContent?: unknown };
    if (result.structuredContent === undefined || !catalogue.current()?.tools.get(params.name)?.output?.wrapsForLegacy) return outcome;
    return { result: { ...result, structuredContent: { result: result.structuredContent } } };
  };
}
