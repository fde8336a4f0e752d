import { CatalogueGeneration, type CatalogueStatus, type ToolDefinition } from '@toolmesh/registry';
import type { AuthenticatedCaller } from '@toolmesh/transport-http/server';

import type { AuthSettings } from '../config/gateway-config';
import { toolPattern } from './tool-pattern';

/** Distinct scope sets whose filtered tool lists one catalogue generation keeps; callers beyond share no list. */
const MAX_CACHED_VIEWS = 256;

/**
 * Per-tool authorization (SPEC G27): the scopes a tool needs are its manifest's `requiredScopes` and those
 * of every operator policy whose pattern matches its name; a caller may see and call it when its verified
 * token grants them all. Decisions read only the caller the authenticator verified (`RequestContext.caller`);
 * without one (authentication off) every tool is open, as before.
 *
 * `visibleCatalogue` is the one filter by the caller's authorization: `tools/list` pages it, and whatever
 * else shows tools to a caller (a search) must go through it too.
 */
export class ToolAuthorization {
  private readonly policies: ReadonlyArray<{ readonly matches: RegExp; readonly scopes: readonly string[] }>;
  private readonly scopesOfTool = new WeakMap<ToolDefinition, readonly string[]>();
  private readonly views = new WeakMap<CatalogueGeneration, Map<string, CatalogueGeneration>>();
  private readonly viewKeys = new WeakMap<AuthenticatedCaller, string>();

  constructor(
    policies: AuthSettings['toolPolicies'],
    /** `mcp.catalogue.toolsListPageSize`: a filtered list is paged as the whole one is. */
    private readonly pageSize: number,
  ) {
    this.policies = policies.map(({ tools, scopes }) => ({ matches: toolPattern(tools), scopes }));
  }

  /** What the tool needs, the manifest's scopes then the policies', each once. */
  requiredScopes(tool: ToolDefinition): readonly string[] {
    let scopes = this.scopesOfTool.get(tool);
    if (scopes === undefined) {
      const all = new Set(tool.requiredScopes);
      for (const policy of this.policies) if (policy.matches.test(tool.name)) for (const scope of policy.scopes) all.add(scope);
      scopes = [...all];
      this.scopesOfTool.set(tool, scopes);
    }
    return scopes;
  }

  /** The scopes the caller lacks for the tool; none when it may call it (or nobody is authenticated). */
  missingScopes(caller: AuthenticatedCaller | undefined, tool: ToolDefinition): readonly string[] {
    if (caller === undefined) return [];
    const required = this.requiredScopes(tool);
    return required.length === 0 ? required : required.filter((scope) => !caller.scopes.has(scope));
  }

  /**
   * The catalogue as this caller may see it: the generation itself when it may call every tool, else one
   * of only the tools it may call, built once per generation and set of granted scopes.
   */
  visibleCatalogue(generation: CatalogueGeneration, caller: AuthenticatedCaller | undefined): CatalogueGeneration {
    if (caller === undefined) return generation;
    let views = this.views.get(generation);
    if (views === undefined) {
      views = new Map();
      this.views.set(generation, views);
    }
    const key = this.viewKey(caller);
    const cached = views.get(key);
    if (cached !== undefined) return cached;
    const visible = [...generation.tools.values()].filter((tool) => this.missingScopes(caller, tool).length === 0);
    const view = visible.length === generation.size ? generation : new CatalogueGeneration(generation.number, visible, this.pageSize);
    if (views.size < MAX_CACHED_VIEWS) views.set(key, view);
    return view;
  }

  /**
   * `GET /actuator/toolBundles` with each bundle's tools that need scopes, and which: what an operator
   * checks a policy against.
   */
  describeBundles(status: CatalogueStatus, generation: CatalogueGeneration | undefined): CatalogueStatus {
    const byBundle = new Map<string, Record<string, readonly string[]>>();
    for (const tool of generation?.tools.values() ?? []) {
      const scopes = this.requiredScopes(tool);
      if (scopes.length === 0) continue;
      let tools = byBundle.get(tool.routeToken);
      if (tools === undefined) byBundle.set(tool.routeToken, (tools = {}));
      tools[tool.name] = scopes;
    }
    return { ...status, bundles: status.bundles.map((bundle) => ({ ...bundle, requiredScopes: byBundle.get(bundle.bundle) ?? {} })) };
  }

  /** The granted scopes in one canonical string, worked out once per verified caller. */
  private viewKey(caller: AuthenticatedCaller): string {
    let key = this.viewKeys.get(caller);
    if (key === undefined) {
      key = [...caller.scopes].sort().join(' ');
      this.viewKeys.set(caller, key);
    }
    return key;
  }
}
