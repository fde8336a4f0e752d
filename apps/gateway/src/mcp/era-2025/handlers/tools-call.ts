import type { ToolResultShaper } from '../../handlers/tools-call';

/**
 * The 2025 era's shaping of a `tools/call` result: the `structuredContent` of a tool whose `outputSchema`
 * is not an object's is wrapped as `{"result": value}`, which 2025 clients require and which matches the
 * schema they were shown (the SDK's rule, SPEC G22).
 */
export const legacyStructuredContent: ToolResultShaper = (tool, result) => {
  if (result.structuredContent === undefined || !tool.output?.wrapsForLegacy) return result;
  return { ...result, structuredContent: { result: result.structuredContent } };
};
