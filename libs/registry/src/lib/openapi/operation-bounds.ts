import { exceedsNodes } from '@toolmesh/protocol';

/** The methods an operation becomes a tool for (HEAD, OPTIONS and TRACE are not tools). */
export const METHODS = new Set(['get', 'put', 'post', 'delete', 'patch']);

/** How a set-aside operation is named: its method and path, as the conversion walks them. */
export function operationKey(method: string, pathTemplate: string): string {
  return `${method} ${pathTemplate}`;
}

/**
 * Bounds what validating an OpenAPI document costs, on the copy the library validates (never the
 * document fetched), before it validates it. The OpenAPI 3.0 schema makes an operation's parameters, a
 * path item's, and the document's `tags` `uniqueItems`, which the validator checks by comparing every
 * pair: an operation with 10,000 parameters was 50 million deep comparisons, 11.5 s of event loop
 * (issue 43, item 2).
 * - An operation whose parameters (its own and its path item's) hold more than `maxSchemaNodes` JSON
 *   values is set aside, its parameters left out of the copy: they would become its tool's
 *   `inputSchema`, over the same limit. The conversion refuses it on its own, with the reason returned.
 * - The document's `tags` (the tags' descriptions) are left out of the copy: the conversion never reads
 *   them, and their count is bounded only by the document's size.
 * Returns the reasons of the operations set aside, by operationKey.
 */
export function setAsideCostlyOperations(copy: Record<string, unknown>, maxSchemaNodes: number): Map<string, string> {
  delete copy['tags'];
  const setAside = new Map<string, string>();
  const paths = copy['paths'];
  if (!isObject(paths)) return setAside;
  for (const [pathTemplate, pathItem] of Object.entries(paths)) {
    if (!isObject(pathItem)) continue;
    const pathParameters = pathItem['parameters'];
    if (exceedsNodes([pathParameters], maxSchemaNodes)) pathItem['parameters'] = [];
    for (const method of Object.keys(pathItem).filter((key) => METHODS.has(key))) {
      const operation = pathItem[method];
      if (!isObject(operation) || !exceedsNodes([pathParameters, operation['parameters']], maxSchemaNodes)) continue;
      operation['parameters'] = [];
      setAside.set(
        operationKey(method, pathTemplate),
        `its parameters hold more than ${maxSchemaNodes} JSON values (mcp.catalogue.maxSchemaNodes), over what its tool's inputSchema may`,
      );
    }
  }
  return setAside;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
