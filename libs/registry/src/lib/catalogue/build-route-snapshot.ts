import { createHash } from 'node:crypto';

import { SchemaCompiler } from '@toolmesh/protocol';

import { RegistryError, RegistryErrorCode, toRegistryError } from '../errors';
import { offeredToolCount, setAsideUnboundedTools } from '../manifest/manifest-bounds';
import { type BundleTarget, validateManifest } from '../manifest/validate-manifest';
import { convertMcpTools } from '../mcp-server/convert-mcp-tools';
import { DEFAULT_MAX_SCHEMA_NODES, type RouteLimits } from '../model/route-limits';
import type { RouteSnapshot, ServiceManifest, SnapshotBuild, SnapshotSource } from '../model/route-snapshot';
import type { RefusedTool, ToolTarget, UncompiledTool } from '../model/tool-definition';
import { convertOpenApi } from '../openapi/convert-openapi';
import { compileToolSchemas } from './compile-tool-schemas';

/**
 * A compiler holds every schema it ever compiled. A route's next build reuses the previous snapshot's, so
 * a refresh recompiles only the schemas that changed (10,000 schemas take about 2 s of CPU to compile),
 * until it holds more than this many times what the route serves; then the build starts a new one and
 * the old one goes with the old snapshot.
 */
const MAX_COMPILER_GROWTH = 2;
const MIN_COMPILER_SIZE = 64;

/** Most of a catalogue's tools are never called: their checking code is compiled at their first call only (issue 50). */
const newCompiler = () => new SchemaCompiler({ codeOnFirstCheck: true });

function compilerFor(previous: RouteSnapshot | undefined): SchemaCompiler {
  if (previous === undefined) return newCompiler();
  const live = previous.tools.length + previous.refusedTools.length;
  return previous.schemas.size <= Math.max(MIN_COMPILER_SIZE, MAX_COMPILER_GROWTH * live) ? previous.schemas : newCompiler();
}

/**
 * Checks what is cheap first: a route offering more than `maxTools` tools is refused before any of its
 * tools is validated or compiled (an OpenAPI document's, once converted) (the whole catalogue could not hold it anyway), and a tool nested too
 * deep, or whose schemas hold more than `maxSchemaNodes` values, is set aside on its own (manifest-bounds.ts). Then validates the route's manifests (each on its
 * own, then duplicates across its services) into a snapshot, and compiles the tools' schemas with the
 * previous snapshot's compiler where it can, in slices that leave the event loop to requests
 * (compile-tool-schemas.ts). So one refresh of a route compiles at most `maxTools` schemas.
 */
export async function buildRouteSnapshot(
  route: { token: string; namePrefix?: string },
  fetched: readonly ServiceManifest[],
  source: SnapshotSource,
  fetchedAt: number,
  limits: RouteLimits,
  previous?: RouteSnapshot,
): Promise<SnapshotBuild> {
  const { maxTools, maxSchemaNodes = DEFAULT_MAX_SCHEMA_NODES } = limits;
  const offered = offeredToolCount(fetched);
  if (offered > maxTools) {
    return {
      ok: false,
      code: RegistryErrorCode.ManifestTooLarge,
      problems: [`the route's manifests offer ${offered} tools, over the limit of ${maxTools}`],
    };
  }
  // An OpenAPI document has no `tools` member: it is counted and bounded once converted (toolsOf).
  const { kept: manifests, refused: unbounded } = setAsideUnboundedTools(fetched, maxSchemaNodes);
  const validated: UncompiledTool[] = [];
  const revisions: string[] = [];
  const problems: string[] = [];
  const refusedAtLoad: RefusedTool[] = [...unbounded];
  let code: RegistryErrorCode | undefined;
  for (const service of manifests) {
    const read = await toolsOf(service, route, maxSchemaNodes);
    if (!read.ok) {
      problems.push(...read.problems.map((problem) => `${service.serviceDomain}: ${problem}`));
      code ??= read.code;
      continue;
    }
    validated.push(...read.tools);
    refusedAtLoad.push(...read.refused);
    if (read.revision !== undefined) revisions.push(read.revision);
  }
  if (validated.length > maxTools) {
    return {
      ok: false,
      code: RegistryErrorCode.ManifestTooLarge,
      problems: [`the route's documents offer ${validated.length} tools, over the limit of ${maxTools}`],
    };
  }
  const seen = new Set<string>();
  for (const tool of validated) {
    if (seen.has(tool.name)) problems.push(`tool ${tool.name}: offered by two tool services of route ${route.token}`);
    seen.add(tool.name);
  }
  if (problems.length > 0) return { ok: false, problems, ...(code !== undefined && { code }) };
  const schemas = compilerFor(previous);
  const { tools, refused } = await compileToolSchemas(validated, schemas);
  const refusedTools = [...refusedAtLoad, ...refused];
  const hash = createHash('sha256')
    .update(JSON.stringify(manifests.map((m) => (m.openapi === undefined ? m.manifest : [m.manifest, m.openapi]))))
    .digest('hex')
    .slice(0, 16);
  return {
    ok: true,
    snapshot: {
      tools,
      refusedTools,
      hash,
      source,
      fetchedAt,
      manifests,
      documents: fetched.map((service) => service.manifest),
      schemas,
      ...(revisions.length > 0 && { revision: revisions.join(',') }),
    },
  };
}

type ServiceTools =
  | { ok: true; tools: UncompiledTool[]; refused: RefusedTool[]; revision?: string }
  | { ok: false; problems: string[]; code?: RegistryErrorCode };

/**
 * One tool service's tools: its manifest's, or its OpenAPI document's selected operations converted to a
 * manifest (issue 27), which then meets the manifest's own rules, each tool with its call's binding.
 */
async function toolsOf(
  service: ServiceManifest,
  route: { token: string; namePrefix?: string },
  maxSchemaNodes: number,
): Promise<ServiceTools> {
  const target = { name: route.token, serviceDomain: service.serviceDomain, namePrefix: route.namePrefix };
  if (service.mcpServer) return mcpServerTools(service, target);
  if (service.openapi === undefined) {
    const validation = validateManifest(service.manifest, target);
    return validation.ok ? { ok: true, ...validation.manifest, tools: [...validation.manifest.tools], refused: [] } : validation;
  }
  const converted = await convertOpenApi(service.manifest, service.openapi, service.serviceDomain, maxSchemaNodes).catch((error: unknown) =>
    toRegistryError(error, RegistryErrorCode.OpenApiInvalid),
  );
  if (converted instanceof RegistryError) return { ok: false, problems: [converted.message], code: converted.code };
  const { kept, refused } = setAsideUnboundedTools([{ ...service, manifest: converted.manifest }], maxSchemaNodes);
  const validation = validateManifest(kept[0]?.manifest, target);
  if (!validation.ok) return { ...validation, code: RegistryErrorCode.OpenApiInvalid };
  const tools = validation.manifest.tools.map((tool) => ({
    ...tool,
    target: { kind: 'openapi', http: convertedEntry(converted.bindings, tool.name) } as const,
    tags: convertedEntry(converted.tags, tool.name),
  }));
  return { ok: true, tools, refused: [...converted.refused, ...refused], revision: validation.manifest.revision };
}

/**
 * An MCP server's tools (issue 28), converted to a manifest that meets the manifest's own rules, each tool
 * with its name on the server and its `_meta` marking its annotations as the server's claims.
 */
function mcpServerTools(service: ServiceManifest, target: BundleTarget): ServiceTools {
  const converted = convertMcpTools(service.manifest, service.serviceDomain, target.name, target.namePrefix);
  if ('problem' in converted) return { ok: false, problems: [converted.problem], code: RegistryErrorCode.McpServerInvalid };
  const validation = validateManifest(converted.manifest, target);
  if (!validation.ok) return { ...validation, code: RegistryErrorCode.McpServerInvalid };
  const tools = validation.manifest.tools.map((tool) => ({
    ...tool,
    publicTool: { ...tool.publicTool, _meta: converted.publicMeta.get(tool.name) },
    target: mcpTarget(convertedEntry(converted.upstreamNames, tool.name), converted.requiredCapabilities.get(tool.name)),
  }));
  return { ok: true, tools, refused: [...converted.refused] };
}

/** An MCP server's tool's target: `requiredCapabilities` only on a tool that needs some, so the others' stay as they were. */
function mcpTarget(upstreamTool: string, requiredCapabilities: readonly string[] | undefined): ToolTarget {
  return requiredCapabilities === undefined ? { kind: 'mcp', upstreamTool } : { kind: 'mcp', upstreamTool, requiredCapabilities };
}

/** What a conversion recorded for one of its tools: validation keeps the names a conversion gave, so each has its entry. */
function convertedEntry<T>(entries: ReadonlyMap<string, T>, name: string): T {
  const entry = entries.get(name);
  if (entry === undefined) throw new Error(`the conversion recorded nothing for its tool ${name}`);
  return entry;
}

/** A route that serves no tools: all its services disabled, or (never fetched) its endpoints unusable. */
export function emptySnapshot(source: SnapshotSource, fetchedAt: number): RouteSnapshot {
  return {
    tools: [],
    refusedTools: [],
    hash: createHash('sha256').update('[]').digest('hex').slice(0, 16),
    source,
    fetchedAt,
    manifests: [],
    schemas: newCompiler(),
  };
}
