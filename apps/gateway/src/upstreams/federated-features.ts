import type { CompleteResult, CompletionParams, GetPromptResult, ReadResourceResult, SkillEntry } from '@toolmesh/mcp-client';
import type { Logger, RequestContext } from '@toolmesh/transport-http/server';

import { auditOf } from '../audit/audit-record';
import { callTimeoutMillis } from '../call/call-timeout';
import type { InputAnswers, InputRequired } from '../call/input-required';
import type { RequestStateSeal, StateBinding, StateRefusal } from '../call/request-state-seal';
import type { BundleSettings } from '../config/gateway-config';
import { GatewayError, GatewayErrorCode } from '../errors/gateway-errors';
import { correlationMeta } from './correlation';
import { FeatureListings } from './feature-listings';
import { FeatureNamespace } from './feature-namespace';
import { type ForwardedState, readForwardedState, sealedInput } from './forwarded-state';
import type { McpUpstreams } from './mcp-upstreams';
import { forwardRelayed, type RelayedRequest, type RelayEnds } from './relayed-request';
import { resourceTarget, type ServedUris } from './resource-target';
import type { UpstreamConnection, UpstreamFeatures } from './upstream-connection';

/** After a failed listing, how long before a server's resources and prompts are listed again. */
const RETRY_MILLIS = 5_000;

/** The resources, resource templates, prompts and skills of every `mcpServer` bundle, as the gateway's clients see them. */
export interface FederatedLists {
  readonly resources: readonly object[];
  readonly resourceTemplates: readonly object[];
  readonly prompts: readonly object[];
  /** SEP-2640 skill entries, their URIs namespaced as the bundle's resources are; front matter, digests and sizes as the server gave them. */
  readonly skills: readonly SkillEntry[];
}

/**
 * A read or a get: the server's result, or why there is none (`candidates`: the namespaced URIs of a URI
 * several servers serve; `failed`: what the server or the connection threw), or the input its server asks
 * our caller for first, its state sealed (issue 44), or why a retry's `requestState` was refused.
 */
export type Forwarded<T> =
  | { readonly result: T }
  | { readonly notFound: true; readonly candidates?: readonly string[] }
  | { readonly failed: unknown }
  | { readonly inputRequired: InputRequired }
  | { readonly invalidState: StateRefusal | 'not_held_here' };

/**
 * What of the caller goes with a get or a read, whose server may ask it for input on the way as a tool's
 * may (issue 44): a 2026 caller's declared input capabilities and its retry's answers (`requestState` as
 * sealed here), a 2025 caller's event stream.
 */
export type FeatureCaller = Pick<RelayedRequest, 'callerCapabilities' | 'callerRelay' | 'callerStream'> & {
  readonly answers?: InputAnswers;
};

export interface FederatedFeaturesOptions {
  /** How long a server's listing is served before it is listed again. */
  readonly ttlMillis: number;
  /** The longest a read or a get may take, whatever is left of the request's deadline (`mcp.maxToolTimeoutMillis`). */
  readonly maxCallMillis: number;
  /** Seals the state of a get or a read whose server asked for input, and opens it on the retry (as a tool call's). */
  readonly requestStates: RequestStateSeal;
  /** What such a state is bound to (execution/request-state-binding.ts: the method, the prompt or URI, the caller, the arguments). */
  readonly bindState: (
    method: 'prompts/get' | 'resources/read',
    target: string,
    args: Record<string, unknown> | undefined,
    context: RequestContext,
  ) => StateBinding;
  readonly now: () => number;
  readonly logger: Logger;
}

interface Combined extends FederatedLists {
  /** The listings' version these lists were built from. */
  readonly version: number;
  /** Each listed prompt's server and its name there, by its name toward clients. */
  readonly promptTargets: ReadonlyMap<string, { readonly bundle: string; readonly name: string }>;
  /** Each bundle's server's URIs and templates, for choosing the server of a read (resource-target.ts). */
  readonly served: readonly ServedUris[];
  /** Each listed resource template's server and its template there, by its template toward clients. */
  readonly templateTargets: ReadonlyMap<string, { readonly bundle: string; readonly template: string }>;
}

/**
 * Resources and prompts of the `mcpServer` bundles' servers, served by the gateway (issue 28): every
 * server's listing kept last good (feature-listings.ts), merged in configuration order under each
 * bundle's namespace (feature-namespace.ts), where a name or URI an earlier bundle already shows is left
 * out and logged, as colliding tool names are; reads and gets forwarded to the server they belong to with
 * what is left of the request's deadline, through the bundle's connection and its circuit breaker.
 */
export class FederatedFeatures {
  private readonly namespaces: ReadonlyMap<string, FeatureNamespace>;
  private readonly listings: FeatureListings;
  private combined: Combined | undefined;

  constructor(
    bundles: readonly BundleSettings[],
    private readonly upstreams: McpUpstreams,
    private readonly options: FederatedFeaturesOptions,
  ) {
    const servers = bundles.filter((bundle) => bundle.mcpServer !== undefined);
    this.namespaces = new Map(servers.map(({ name, namePrefix }) => [name, new FeatureNamespace(name, namePrefix)]));
    this.listings = new FeatureListings(
      [...this.namespaces.keys()],
      async (bundle) => (await this.connection(bundle)).listFeatures(),
      { ttlMillis: options.ttlMillis, retryMillis: Math.min(RETRY_MILLIS, options.ttlMillis), now: options.now },
      options.logger,
    );
  }

  /** Whether any bundle is an MCP server: without one, the gateway serves neither resources nor prompts. */
  get served(): boolean {
    return this.namespaces.size > 0;
  }

  /** Lists `bundle`'s server again now: it told a change of its resources or prompts (`FeatureListings.relist`). */
  relist(bundle: string): void {
    this.listings.relist(bundle);
  }

  /** Told when a server's resources, templates or skills changed; returns the unsubscribe function. */
  onResourcesChanged(listener: () => void): () => void {
    return this.listings.onResourcesChanged(listener);
  }

  /** Lists every server once, at start, so that the first client's listing finds them listed. */
  start(): void {
    void this.lists();
  }

  async lists(): Promise<FederatedLists> {
    return this.current();
  }

  async readResource(uri: string, context: RequestContext, caller: FeatureCaller = {}): Promise<Forwarded<ReadResourceResult>> {
    const target = resourceTarget(uri, (await this.current()).served);
    if (target === undefined) return { notFound: true };
    if ('ambiguous' in target) return { notFound: true, candidates: target.ambiguous };
    auditOf(context)?.served(target.bundle);
    // The contents under the URI the caller read: namespaced when it wrote the namespace, the server's own when it did not.
    const shown = target.namespaced ? (this.namespaces.get(target.bundle) as FeatureNamespace) : undefined;
    const forwarded = await this.forward(target.bundle, { method: 'resources/read', target: target.uri }, uri, context, caller);
    if (!('result' in forwarded)) return forwarded;
    const { contents, _meta } = forwarded.result as ReadResourceResult;
    return {
      result: {
        contents: shown === undefined ? contents : contents.map((content) => ({ ...content, uri: shown.uri(content.uri) })),
        ...(_meta !== undefined && { _meta }),
      },
    };
  }

  async getPrompt(
    name: string,
    args: Record<string, string> | undefined,
    context: RequestContext,
    caller: FeatureCaller = {},
  ): Promise<Forwarded<GetPromptResult>> {
    const target = (await this.current()).promptTargets.get(name);
    if (target === undefined) return { notFound: true };
    auditOf(context)?.served(target.bundle, name);
    const forwarded = await this.forward(target.bundle, { method: 'prompts/get', target: target.name, args }, name, context, caller);
    if (!('result' in forwarded)) return forwarded;
    const { description, messages, _meta } = forwarded.result as GetPromptResult;
    return { result: { ...(description !== undefined && { description }), messages, ...(_meta !== undefined && { _meta }) } };
  }

  /**
   * A `completion/complete` of a listed prompt's or resource template's argument, asked of its server under
   * the server's own name or template, with what is left of the request's deadline.
   */
  async complete(params: CompletionParams, context: RequestContext): Promise<Forwarded<CompleteResult>> {
    const { promptTargets, templateTargets } = await this.current();
    const { ref } = params;
    let target: { readonly bundle: string; readonly ref: CompletionParams['ref'] } | undefined;
    if (ref.type === 'ref/prompt') {
      const prompt = promptTargets.get(ref.name);
      target = prompt && { bundle: prompt.bundle, ref: { ...ref, name: prompt.name } };
    } else {
      const template = templateTargets.get(ref.uri);
      target = template && { bundle: template.bundle, ref: { ...ref, uri: template.template } };
    }
    if (target === undefined) return { notFound: true };
    try {
      const connection = await this.connection(target.bundle);
      const result = await connection.complete(
        { ...params, ref: target.ref },
        { timeoutMillis: callTimeoutMillis(this.options.maxCallMillis, context), meta: correlationMeta(context, undefined) },
      );
      return { result };
    } catch (error) {
      return { failed: error };
    }
  }

  /**
   * A get or a read relayed to its server as a tool's call is (relayed-request.ts), its state sealed to the
   * method, the prompt or URI as our caller named it (`shown`), the caller and the arguments.
   */
  private async forward(
    bundle: string,
    request: Pick<RelayedRequest, 'method' | 'target' | 'args'> & { readonly method: 'prompts/get' | 'resources/read' },
    shown: string,
    context: RequestContext,
    caller: FeatureCaller,
  ): Promise<Forwarded<unknown>> {
    const { requestStates, logger, bindState } = this.options;
    const binding = bindState(request.method, shown, request.args, context);
    let state: ForwardedState | undefined;
    const sealed = caller.answers?.requestState;
    if (sealed !== undefined) {
      const opened = requestStates.open(binding, sealed);
      if ('refused' in opened) {
        logger.warn('request_state_refused', { method: request.method, reason: opened.refused }, context);
        return { invalidState: opened.refused };
      }
      state = readForwardedState(opened.state);
      if (state === undefined) return { invalidState: 'not_sealed_here' };
    }
    const inputResponses = caller.answers?.inputResponses as Record<string, unknown> | undefined;
    const forwarded = await forwardRelayed(
      { bundle, connection: this.connection(bundle), held: this.upstreams.held },
      {
        ...request,
        ...caller,
        answers: { ...(inputResponses !== undefined && { inputResponses }), ...(state && { state }) },
      },
      context,
      correlationMeta(context, undefined),
      callTimeoutMillis(this.options.maxCallMillis, context),
      FEATURE_ENDS,
    );
    if (!('held' in forwarded)) return forwarded;
    return { inputRequired: sealedInput(requestStates, binding, forwarded.inputRequired, forwarded.held) };
  }

  private connection(bundle: string): Promise<UpstreamConnection> {
    return this.upstreams.connection(bundle) as Promise<UpstreamConnection>;
  }

  private async current(): Promise<Combined> {
    const listings = await this.listings.current();
    if (this.combined?.version !== this.listings.version) this.combined = this.combine(listings, this.listings.version);
    return this.combined;
  }

  private combine(listings: ReadonlyArray<readonly [string, UpstreamFeatures | undefined]>, version: number): Combined {
    const resources: object[] = [];
    const resourceTemplates: object[] = [];
    const prompts: object[] = [];
    const skills: SkillEntry[] = [];
    const skillUris = new Set<string>();
    const promptTargets = new Map<string, { bundle: string; name: string }>();
    const templateTargets = new Map<string, { bundle: string; template: string }>();
    const uris = new Set<string>();
    const served: ServedUris[] = [];
    for (const [bundle, features] of listings) {
      const namespace = this.namespaces.get(bundle) as FeatureNamespace;
      const own = { namespace, uris: new Set<string>(), templates: [] as string[] };
      served.push(own);
      let collisions = 0;
      /** Adds `shown` unless an earlier bundle shows it: the first bundle in configuration order keeps it. */
      const claim = (taken: Set<string> | Map<string, unknown>, shown: string, add: () => void) => {
        if (taken.has(shown)) collisions += 1;
        else add();
      };
      for (const resource of features?.resources ?? []) {
        const uri = namespace.uri(resource.uri);
        claim(uris, uri, () => {
          uris.add(uri);
          own.uris.add(resource.uri);
          resources.push({ ...resource, uri });
        });
      }
      for (const template of features?.resourceTemplates ?? []) {
        const uriTemplate = namespace.uri(template.uriTemplate);
        claim(templateTargets, uriTemplate, () => {
          templateTargets.set(uriTemplate, { bundle, template: template.uriTemplate });
          own.templates.push(template.uriTemplate);
          resourceTemplates.push({ ...template, uriTemplate });
        });
      }
      for (const prompt of features?.prompts ?? []) {
        const name = namespace.promptName(prompt.name);
        claim(promptTargets, name, () => {
          promptTargets.set(name, { bundle, name: prompt.name });
          prompts.push({ ...prompt, name });
        });
      }
      for (const skill of features?.skills ?? []) {
        const uri = namespace.uri(skill.uri);
        claim(skillUris, uri, () => {
          skillUris.add(uri);
          // A skill's files are read from its server: each listed one is a URI that server serves.
          const files = skill.resources === 'dynamic' ? [] : skill.resources;
          for (const file of [skill, ...files]) own.uris.add(file.uri);
          skills.push({
            ...skill,
            uri,
            resources: skill.resources === 'dynamic' ? 'dynamic' : files.map((file) => ({ ...file, uri: namespace.uri(file.uri) })),
          });
        });
      }
      // The count only: the names are the servers' own text.
      if (collisions > 0) this.options.logger.warn('mcp_upstream_feature_collision', { bundle, leftOut: collisions });
    }
    return { resources, resourceTemplates, prompts, skills, version, promptTargets, served, templateTargets };
  }
}

/** How a get or a read ends: its result, its failure, or its server's request for input (its state sealed by `forward`). */
const FEATURE_ENDS: RelayEnds<Forwarded<unknown> | { readonly inputRequired: InputRequired; readonly held: string | undefined }> = {
  answered: (result) => ({ result }),
  failed: (error) => ({ failed: error }),
  inputRequired: (inputRequired, held) => ({ inputRequired, held }),
  notHeld: (why) =>
    why === 'gone'
      ? { invalidState: 'not_held_here' }
      : {
          failed: new GatewayError(
            GatewayErrorCode.HeldCallsFull,
            `its server asked for your input, but this gateway already holds as many requests waiting for input as it may (mcp.heldCalls), so the request was cancelled; send it again later`,
          ),
        },
};
