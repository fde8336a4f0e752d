import { RegistryError, RegistryErrorCode } from '../errors';
import type { RouteSnapshot } from '../model/route-snapshot';
import type { ToolDefinition } from '../model/tool-definition';
import { CatalogueGeneration } from './catalogue-generation';

export interface CatalogueLimits {
  /** Most tools the merged catalogue may hold. */
  readonly maxTools: number;
  /** Largest serialized `tools/list` result, in bytes. */
  readonly maxSerializedBytes: number;
  /** Most tools in one `tools/list` page. */
  readonly toolsListPageSize: number;
}

/**
 * All routes' snapshots as one generation, checked as one catalogue: a name offered by two routes or a
 * catalogue over the caps throws, and the caller keeps its old generation (SPEC G14).
 */
export function mergeRoutes(
  snapshots: ReadonlyArray<readonly [string, RouteSnapshot]>,
  limits: CatalogueLimits,
  number: number,
): CatalogueGeneration {
  const tools: ToolDefinition[] = [];
  const owner = new Map<string, string>();
  for (const [route, snapshot] of snapshots) {
    for (const tool of snapshot.tools) {
      const other = owner.get(tool.name);
      if (other !== undefined)
        throw new RegistryError(RegistryErrorCode.NameCollision, `tool ${tool.name} is offered by routes ${other} and ${route}`);
      owner.set(tool.name, route);
      tools.push(tool);
    }
  }
  if (tools.length > limits.maxTools) {
    throw new RegistryError(RegistryErrorCode.CatalogueTooLarge, `${tools.length} tools exceed the limit of ${limits.maxTools}`);
  }
  const generation = new CatalogueGeneration(number, tools, limits.toolsListPageSize);
  if (generation.serializedBytes > limits.maxSerializedBytes) {
    throw new RegistryError(
      RegistryErrorCode.CatalogueTooLarge,
      `the tool list takes ${generation.serializedBytes} bytes, over the limit of ${limits.maxSerializedBytes}`,
    );
  }
  return generation;
}

/** Same tools/list body and same execution details: installing it would change nothing. */
export function sameCatalogue(a: CatalogueGeneration, b: CatalogueGeneration): boolean {
  if (a.toolsListResult.json !== b.toolsListResult.json) return false;
  for (const [name, tool] of a.tools) {
    const other = b.tools.get(name);
    if (
      !other ||
      other.endpoint.href !== tool.endpoint.href ||
      other.timeoutMillis !== tool.timeoutMillis ||
      other.maxResultChars !== tool.maxResultChars ||
      other.routeToken !== tool.routeToken ||
      JSON.stringify(other.target) !== JSON.stringify(tool.target)
    )
      return false;
  }
  return true;
}
