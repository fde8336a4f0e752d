import { DEFAULT_MAX_DEPTH, exceedsDepth, exceedsNodes, printableName } from '@toolmesh/protocol';

import { RegistryErrorCode } from '../errors';
import type { ServiceManifest } from '../model/route-snapshot';
import type { RefusedTool } from '../model/tool-definition';

/**
 * Levels above a tool in a `tools/list` response (the response, its `result`, the `tools` array): a tool
 * may nest this many fewer levels than a message, so that the list stays within what parsers accept,
 * the gateway's own included (DEFAULT_MAX_DEPTH).
 */
const LEVELS_ABOVE_A_TOOL = 3;
const MAX_TOOL_DEPTH = DEFAULT_MAX_DEPTH - LEVELS_ABOVE_A_TOOL;

/**
 * How many tools the manifests offer, counted before any of them is validated or compiled, so that a
 * route over `maxTools` costs one pass over an array rather than a schema check and a compile per tool.
 */
export function offeredToolCount(manifests: readonly ServiceManifest[]): number {
  let count = 0;
  for (const { manifest } of manifests) {
    const tools = (manifest as { tools?: unknown } | null)?.tools;
    if (Array.isArray(tools)) count += tools.length;
  }
  return count;
}

/**
 * Sets aside, each refused on its own, the tools a route could not afford to serve:
 * - nested deeper than MAX_TOOL_DEPTH (`registry.tool_too_deep`): served, they would make `tools/list`
 *   unreadable, and writing them back as JSON (the route's hash, the shared cache) overflows the stack
 *   near 3,000 levels;
 * - whose `inputSchema` and `outputSchema` hold more than `maxSchemaNodes` JSON values together
 *   (`registry.schema_too_large`): compiling a schema holds the event loop for as long as it takes, in
 *   proportion to its size, and is the one step no slicing can interrupt. Counted before the manifest is
 *   validated, so such a tool costs one walk that stops at the limit.
 * The manifests returned are the ones kept: without those tools.
 */
export function setAsideUnboundedTools(
  manifests: readonly ServiceManifest[],
  maxSchemaNodes: number,
): { kept: ServiceManifest[]; refused: RefusedTool[] } {
  const refused: RefusedTool[] = [];
  const kept = manifests.map((service) => {
    const tools = (service.manifest as { tools?: unknown } | null)?.tools;
    if (!Array.isArray(tools)) return service;
    const bounded = tools.filter((tool: unknown) => {
      const problem = unboundedBy(tool, maxSchemaNodes);
      if (problem === undefined) return true;
      refused.push({ name: nameOf(tool), ...problem });
      return false;
    });
    return bounded.length === tools.length ? service : { ...service, manifest: { ...(service.manifest as object), tools: bounded } };
  });
  return { kept, refused };
}

function unboundedBy(tool: unknown, maxSchemaNodes: number): Omit<RefusedTool, 'name'> | undefined {
  if (exceedsDepth(tool, MAX_TOOL_DEPTH)) {
    return { code: RegistryErrorCode.ToolTooDeep, message: `the tool's definition is nested deeper than ${MAX_TOOL_DEPTH} levels` };
  }
  const { inputSchema, outputSchema } = (tool ?? {}) as { inputSchema?: unknown; outputSchema?: unknown };
  if (exceedsNodes([inputSchema, outputSchema], maxSchemaNodes)) {
    return {
      code: RegistryErrorCode.SchemaTooLarge,
      message: `the tool's inputSchema and outputSchema hold more than ${maxSchemaNodes} JSON values (mcp.catalogue.maxSchemaNodes)`,
    };
  }
  return undefined;
}

/** The name to list a refused tool under (not validated yet, so made printable). */
function nameOf(tool: unknown): string {
  const name = (tool as { name?: unknown }).name;
  return typeof name === 'string' ? printableName(name) : '(unnamed)';
}
