import type { ToolCatalogue } from '@toolmesh/registry';
import type { ToolResultShaper } from '../../handlers/tools-call';

/**
 * The 2025 era's shaping of a `tools/call` result: the `structuredContent` of a tool whose `outputSchema`
 * is not an object's is wrapped as `{"result": value}`, which 2025 clients require and which matches the
 * schema they were shown (the SDK's rule, SPEC G22).
 */
export function legacyStructuredContent(catalogue: ToolCatalogue): ToolResultShaper {
  return (name, result) => {
    if (result.structuredContent === undefined || !catalogue.current()?.tools.get(name)?.output?.wrapsForLegacy) return result;
    return { ...result, structuredContent: { result: result.structuredContent } };
  };
}
