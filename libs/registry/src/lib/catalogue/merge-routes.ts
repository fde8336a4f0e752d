import { RegistryError, RegistryErrorCode } from '../errors';
import type { RouteLimits } from '../model/route-limits';
import type { RouteSnapshot } from '../model/route-snapshot';
import type { RefusedTool, ToolDefinition } from '../model/tool-definition';
import { CatalogueGeneration } from './catalogue-generation';

export interface CatalogueLimits extends RouteLimits {
  /** Most tools the merged catalogue may hold, and one route may offer. */
  readonly maxTools: number;
  /** Largest serialized `tools/list` result, in bytes. */
  readonly maxSerializedBytes: number;
  /** Most tools in one `tools/list` page. */
  readonly toolsListPageSize: number;
}

/** A tool name two routes offer: the first of them in route order serves it, the later one's tool is left out. */
export interface NameCollision {
  readonly tool: string;
  readonly servedBy: string;
  readonly leftOutOf: string;
}

export interface MergedRoutes {
  readonly generation: CatalogueGeneration;
  readonly collisions: readonly NameCollision[];
}

/**
 * All routes' snapshots as one generation, checked as one catalogue. A name offered by two routes is
 * served by the first in route order (the configuration's, or the portal registry's) and left out of the
 * later one: every replica makes the same choice whatever it loaded before, and one route's tool cannot
 * take a name from a route listed before it, nor keep the rest of the catalogue from being served. A
 * catalogue over the caps throws, and the caller keeps its old generation (SPEC G14).
 */
export function mergeRoutes(
  snapshots: ReadonlyArray<readonly [string, RouteSnapshot]>,
  limits: CatalogueLimits,
  number: number,
): MergedRoutes {
  const tools: ToolDefinition[] = [];
  const collisions: NameCollision[] = [];
  const owner = new Map<string, string>();
  for (const [route, snapshot] of snapshots) {
    for (const tool of snapshot.tools) {
      const servedBy = owner.get(tool.name);
      if (servedBy !== undefined) {
        collisions.push({ tool: tool.name, servedBy, leftOutOf: route });
        continue;
      }
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
  return { generation, collisions };
}

/** How a route's status shows its tool that a collision left out: what happened, and what serves both. */
export function collisionRefusal(collision: NameCollision): RefusedTool {
  return {
    name: collision.tool,
    code: RegistryErrorCode.NameCollision,
    message:
      `tool ${collision.tool} is left out: bundle ${collision.servedBy}, listed before bundle ${collision.leftOutOf}, serves that name. ` +
      "To serve both, rename one of them: an mcpServer bundle's namePrefix goes in front of its server's names, " +
      'a manifest or OpenAPI document names its own tools.',
  };
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
      JSON.stringify(other.target) !== JSON.stringify(tool.target) ||
      // What a gateway's curated endpoints select by: an operation whose tags alone changed is a change.
      String(other.tags) !== String(tool.tags)
    )
      return false;
  }
  return true;
}
