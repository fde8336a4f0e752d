import type { ToolCatalogue } from '@toolmesh/registry';
import type { ModernRequestHandler } from '../era-2026';
import { errorOutcome } from '../../outcomes';
import { checkParamHeaders } from '../param-headers';

/**
 * `tools/call` of the 2026 era: the `Mcp-Param-*` headers of the tool's `x-mcp-header` arguments are
 * checked against the body first (`-32020` + 400), then the call is the one both eras share. An unknown
 * tool has no annotations to check; the shared handler says it is unknown.
 */
export function modernToolsCallHandler(catalogue: ToolCatalogue, call: ModernRequestHandler): ModernRequestHandler {
  return async (params, context, id, envelope) => {
    const tool = typeof params.name === 'string' ? catalogue.current()?.tools.get(params.name) : undefined;
    const args = params.arguments;
    if (tool && tool.mcpHeaders.length > 0 && typeof args === 'object' && args !== null && !Array.isArray(args)) {
      const mismatch = checkParamHeaders(id, tool.mcpHeaders, args as Record<string, unknown>, context);
      if (mismatch) return errorOutcome(mismatch, 400);
    }
    return call(params, context, id, envelope);
  };
}
