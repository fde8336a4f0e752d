import { ANNOTATIONS_CLAIM_META_KEY, canonicalDefinition, DEFINITION_HASH_META_KEY, definitionHash } from '@toolmesh/protocol';
import { CatalogueGeneration, type ToolDefinition } from '@toolmesh/registry';

import { toolPattern } from '../auth/tool-pattern';
import type { EndpointSettings, ToolOverride } from '../config/endpoint-settings';

/**
 * The `_meta` key under which a curated endpoint's tool says what the operator changed of it, as the
 * federated-claim marker (ANNOTATIONS_CLAIM_META_KEY) says whose its annotations are: a client can tell the
 * operator's words from the tool owner's.
 */
export const OPERATOR_META_KEY = 'io.toolmesh/operator';

/** The marker's value: the endpoint, what the operator changed, and the tool's name in the catalogue when it is shown under another. */
export interface OperatorMarker {
  readonly endpoint: string;
  readonly changed: ReadonlyArray<'name' | 'description' | 'annotations'>;
  readonly aliasOf?: string;
}

/** A tool the endpoint selects but does not serve: another tool it serves is shown under its name. */
export interface LeftOutTool {
  readonly tool: string;
  readonly shownAs: string;
  readonly reason: string;
}

export interface CuratedGeneration {
  readonly generation: CatalogueGeneration;
  readonly leftOut: readonly LeftOutTool[];
}

/**
 * One endpoint's subset of the catalogue (issue 46): the tools its `serve` entries select (by bundle, name
 * pattern or OpenAPI tag), in the catalogue's order, each with the operator's overrides applied and
 * marked. A tool keeps its catalogue name (`ToolDefinition.name`) and everything the gateway knows it by
 * (authorization policies, per-tool limits, concurrency slots, logs, metrics); only what callers see
 * (`publicTool`) changes, and the curated generation finds it by that name alone. Built once per catalogue
 * generation; a tool left unchanged is the catalogue's own object, and a changed one is made once per
 * catalogue object, so identity-keyed caches (the search index, the scopes of a tool) keep working.
 */
export class ToolSelection {
  private readonly bundles: ReadonlySet<string>;
  private readonly patterns: readonly RegExp[];
  private readonly tags: ReadonlySet<string>;
  private readonly overrides: ReadonlyMap<string, ToolOverride>;
  private readonly changed = new WeakMap<ToolDefinition, ToolDefinition>();

  constructor(
    private readonly endpoint: Pick<EndpointSettings, 'name' | 'serve' | 'overrides'>,
    /** `mcp.catalogue.toolsListPageSize`: the subset's list is paged as the whole one is. */
    private readonly pageSize: number,
  ) {
    const { serve } = endpoint;
    this.bundles = new Set(serve.flatMap((selector) => ('bundle' in selector ? [selector.bundle] : [])));
    this.patterns = serve.flatMap((selector) => ('tools' in selector ? [toolPattern(selector.tools)] : []));
    this.tags = new Set(serve.flatMap((selector) => ('tag' in selector ? [selector.tag] : [])));
    this.overrides = new Map(Object.entries(endpoint.overrides ?? {}));
  }

  selects(tool: ToolDefinition): boolean {
    return (
      this.bundles.has(tool.routeToken) ||
      this.patterns.some((pattern) => pattern.test(tool.name)) ||
      (tool.tags?.some((tag) => this.tags.has(tag)) ?? false)
    );
  }

  /**
   * The endpoint's generation of `generation`. Two tools shown under one name (an alias that is also the
   * name of a tool a pattern selects): the aliased one is served, the operator having named it so.
   */
  curate(generation: CatalogueGeneration): CuratedGeneration {
    const served = new Map<string, ToolDefinition>();
    const leftOut: LeftOutTool[] = [];
    for (const tool of generation.tools.values()) {
      if (!this.selects(tool)) continue;
      const shown = this.shown(tool);
      const name = shown.publicTool.name;
      const other = served.get(name);
      if (other === undefined) served.set(name, shown);
      else if (other.name === name) {
        served.set(name, shown);
        leftOut.push({ tool: other.name, shownAs: name, reason: `the endpoint shows tool ${tool.name} under this name` });
      } else leftOut.push({ tool: tool.name, shownAs: name, reason: `the endpoint shows tool ${other.name} under this name` });
    }
    const tools = [...served.values()];
    const same = tools.length === generation.size && tools.every((tool) => generation.tools.get(tool.name) === tool);
    return { generation: same ? generation : new CatalogueGeneration(generation.number, tools, this.pageSize), leftOut };
  }

  /** The tool as this endpoint shows it: itself, or once per catalogue object, with the operator's overrides. */
  private shown(tool: ToolDefinition): ToolDefinition {
    const override = this.overrides.get(tool.name);
    if (override === undefined) return tool;
    let shown = this.changed.get(tool);
    if (shown === undefined) {
      shown = { ...tool, publicTool: overridden(tool, override, this.endpoint.name) };
      this.changed.set(tool, shown);
    }
    return shown;
  }
}

/**
 * The tool's public fields with the override applied and the operator's marker in `_meta`. Annotations are
 * replaced whole, so an MCP server's claim marker goes with its annotations: they are no longer its claims.
 */
function overridden(tool: ToolDefinition, override: ToolOverride, endpoint: string): ToolDefinition['publicTool'] {
  const { publicTool } = tool;
  const changed: Array<OperatorMarker['changed'][number]> = [];
  const aliased = override.name !== undefined && override.name !== tool.name;
  if (aliased) changed.push('name');
  if (override.description !== undefined) changed.push('description');
  const meta = { ...(publicTool._meta as Record<string, unknown> | undefined) };
  if (override.annotations !== undefined) {
    changed.push('annotations');
    delete meta[ANNOTATIONS_CLAIM_META_KEY];
  }
  const marker: OperatorMarker = { endpoint, changed, ...(aliased && { aliasOf: tool.name }) };
  const shown = {
    ...publicTool,
    ...(aliased && { name: override.name }),
    ...(override.description !== undefined && { description: override.description }),
    ...(override.annotations !== undefined && { annotations: override.annotations }),
  } as ToolDefinition['publicTool'];
  // A definition's hash is of what its callers are shown, so that a client pinning it pins the operator's version.
  if (meta[DEFINITION_HASH_META_KEY] !== undefined) meta[DEFINITION_HASH_META_KEY] = definitionHash(canonicalDefinition(shown));
  return { ...shown, _meta: { ...meta, [OPERATOR_META_KEY]: marker } };
}
