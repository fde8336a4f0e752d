import type { CallRefusal } from '../../handlers/tools-call';
import { errorOutcome } from '../../outcomes';
import { checkParamHeaders } from '../param-headers';

/**
 * The 2026 era's check of a `tools/call` before it runs: the `Mcp-Param-*` headers of the tool's
 * `x-mcp-header` arguments are checked against the body (`-32020` + 400).
 */
export const paramHeaderRefusal: CallRefusal = (tool, args, context, id) => {
  if (tool.mcpHeaders.length === 0) return undefined;
  const mismatch = checkParamHeaders(id, tool.mcpHeaders, args, context);
  return mismatch ? errorOutcome(mismatch, 400) : undefined;
};
