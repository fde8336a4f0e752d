import { CatalogueGeneration, type CatalogueStatus, type ToolDefinition } from '@toolmesh/registry';
import type { AuthenticatedCaller } from '@toolmesh/transport-http/server';

import type { AuthSettings } from '../config/gateway-config';
import { toolPattern } from './tool-pattern';

/** Distinct scope sets whose filtered tool lists one catalogue generation keeps; callers beyond share no list. */
const MAX_CACHED_VIEWS = 256;

/** An operator policy of `auth.toolPolicies`, its pattern compiled. */
interface ToolPolicy {
  readonly matches: RegExp;
  readonly scopes: readonly string[];
  readonly discoverable: boolean;
}

/** What one tool needs: every scope to call it, and those of them a caller needs to be shown it. */
interface ToolScopes {
  readonly toCall: readonly string[];
  /** Without the scopes of `discoverable` policies; the manifest's always count. */
  readonly toList: readonly string[];
}

/**
 * Per-tool authorization (SPEC G27): the scopes a tool needs are its manifest's `requiredScopes` and those
 * of every operator policy whose pattern matches its name; a caller may see and call it when its verified
 * token grants them all. A `discoverable` policy's scopes are needed to call a tool, not to see it: the
 * MCP authorization specification's scope minimization (a small first grant, elevation through a
 * targeted `insufficient_scope` challenge when a privileged tool is first called) needs the tool shown
 * before it can be called. Decisions read only the caller the authenticator verified
 * (`RequestContext.caller`); without one (authentication off) every tool is open, as before.
 *
 * `visibleCatalogue` is the one filter by the caller's authorization: `tools/list` pages it, and whatever
 * else shows tools to a caller (a search) must go through it too.
 */
export class ToolAuthorization {
  private readonly policies: readonly ToolPolicy[];
  private readonly scopesOfTool = new WeakMap<ToolDefinition, ToolScopes>();
  private readonly views = new WeakMap<CatalogueGeneration, Map<string, CatalogueGeneration>>();
  private readonly viewKeys = new WeakMap<AuthenticatedCaller, string>();

  constructor(
    policies: AuthSettings['toolPolicies'],
    /** `mcp.catalogue.toolsListPageSize`: a filtered list is paged as the whole one is. */
    private readonly pageSize: number,
  ) {
    this.policies = policies.map(({ tools, scopes, discoverable = false }) => ({ matches: toolPattern(tools), scopes, discoverable }));
  }

  /** What the tool needs to be called, the manifest's scopes then the policies', each once. */
  requiredScopes(tool: ToolDefinition): readonly string[] {
    return this.scopesOf(tool).toCall;
  }

  /** The scopes the caller lacks to call the tool; none when it may (or nobody is authenticated). */
  missingScopes(caller: AuthenticatedCaller | undefined, tool: ToolDefinition): readonly string[] {
    if (caller === undefined) return [];
    const required = this.requiredScopes(tool);
    return required.length === 0 ? required : required.filter((scope) => !caller.scopes.has(scope));
  }

  /**
   * The catalogue as this caller may see it: the generation itself when it may see every tool, else one
   * of only the tools it may call or discover, built once per generation and set of granted scopes.
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
    const visible = [...generation.tools.values()].filter((tool) => this.scopesOf(tool).toList.every((scope) => caller.scopes.has(scope)));
    const view = visible.length === generation.size ? generation : new CatalogueGeneration(generation.number, visible, this.pageSize);
    if (views.size < MAX_CACHED_VIEWS) views.set(key, view);
    return view;
  }

  /**
   * `GET /actuator/toolBundles` with each bundle's tools that need scopes, and which, and those of them
   * listed to callers without some of those scopes: what an operator checks a policy against.
   */
  describeBundles(status: CatalogueStatus, generation: CatalogueGeneration | undefined): CatalogueStatus {
    const byBundle = new Map<string, { requiredScopes: Record<string, readonly string[]>; discoverableTools: string[] }>();
    for (const tool of generation?.tools.values() ?? []) {
      const { toCall, toList } = this.scopesOf(tool);
      if (toCall.length === 0) continue;
      let described = byBundle.get(tool.routeToken);
      if (described === undefined) byBundle.set(tool.routeToken, (described = { requiredScopes: {}, discoverableTools: [] }));
      described.requiredScopes[tool.name] = toCall;
      if (toList.length < toCall.length) described.discoverableTools.push(tool.name);
    }
    const none = { requiredScopes: {}, discoverableTools: [] };
    return { ...status, bundles: status.bundles.map((bundle) => ({ ...bundle, ...(byBundle.get(bundle.bundle) ?? none) })) };
  }

  private scopesOf(tool: ToolDefinition): ToolScopes {
    let scopes = this.scopesOfTool.get(tool);
    if (scopes === undefined) {
      const toCall = new Set(tool.requiredScopes);
      const toList = new Set(tool.requiredScopes);
      for (const policy of this.policies) {
        if (!policy.matches.test(tool.name)) continue;
        for (const scope of policy.scopes) {
          toCall.add(scope);
          if (!policy.discoverable) toList.add(scope);
        }
      }
      scopes = { toCall: [...toCall], toList: [...toList] };
      this.scopesOfTool.set(tool, scopes);
    }
    return scopes;
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
