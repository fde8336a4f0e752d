import { RegistryError, RegistryErrorCode } from '../errors';
import type { ManifestSource } from '../sources/manifest-source';
import { validateManifest, type BundleTarget, type ValidatedManifest } from '../manifest/validate-manifest';
import { CatalogueGeneration } from './catalogue-generation';
import type { ToolCatalogue } from './tool-catalogue';
import type { ToolDefinition } from './tool-definition';

export interface BundleConfig extends BundleTarget {
  readonly source: ManifestSource;
}

export interface CatalogueLimits {
  /** Most tools the merged catalogue may hold. */
  readonly maxTools: number;
  /** Largest serialized `tools/list` result, in bytes. */
  readonly maxSerializedBytes: number;
}

/** The catalogue's log events; a winston logger fits. Fields never hold manifest contents. */
export interface CatalogueLog {
  info(event: string, fields: Record<string, unknown>): void;
  warn(event: string, fields: Record<string, unknown>): void;
}

export interface BundleCatalogueOptions {
  readonly bundles: readonly BundleConfig[];
  readonly limits: CatalogueLimits;
  /** Least time between two refreshes of one bundle forced by unknown names or stale tools (SPEC G15: 5 s). */
  readonly forcedRefreshCooldownMillis: number;
  readonly log: CatalogueLog;
  readonly now?: () => number;
}

/**
 * The catalogue over a fixed list of bundles (`mcp.bundles`): each bundle's manifest is fetched in
 * parallel, the last good manifest of each bundle is kept, and all are merged into one generation.
 * A failed fetch never deletes tools; a name collision or an oversized result keeps the old generation.
 * Concurrent refreshes share one flight, and no lock is held across I/O.
 */
export class BundleCatalogue implements ToolCatalogue {
  private generation: CatalogueGeneration | undefined;
  private readonly lastGood = new Map<string, ValidatedManifest>();
  private readonly lastForcedRefresh = new Map<string, number>();
  private flight: { bundles: ReadonlySet<string>; promise: Promise<CatalogueGeneration | undefined> } | undefined;
  private readonly now: () => number;

  constructor(private readonly options: BundleCatalogueOptions) {
    this.now = options.now ?? (() => performance.now());
  }

  current(): CatalogueGeneration | undefined {
    return this.generation;
  }

  ensureLoaded(): Promise<CatalogueGeneration | undefined> {
    return this.generation ? Promise.resolve(this.generation) : this.refresh(this.options.bundles);
  }

  /** Fetches every bundle now (startup preload). Failures are logged, never thrown. */
  refreshAll(): Promise<CatalogueGeneration | undefined> {
    return this.refresh(this.options.bundles);
  }

  refreshForUnknownTool(name: string): Promise<CatalogueGeneration | undefined> {
    const due = this.options.bundles.filter((bundle) => this.takeForcedRefreshSlot(bundle.name));
    if (due.length === 0) return Promise.resolve(this.generation);
    this.options.log.info('catalogue_refresh_forced', { reason: 'unknown_tool', tool: name.slice(0, 128), bundles: due.length });
    return this.refresh(due);
  }

  reportStaleTool(tool: ToolDefinition): void {
    const bundle = this.options.bundles.find((b) => b.name === tool.bundle);
    if (!bundle || !this.takeForcedRefreshSlot(bundle.name)) return;
    this.options.log.info('catalogue_refresh_forced', { reason: 'stale_tool', tool: tool.name, bundle: bundle.name });
    void this.refresh([bundle]);
  }

  private takeForcedRefreshSlot(bundle: string): boolean {
    const last = this.lastForcedRefresh.get(bundle);
    const now = this.now();
    if (last !== undefined && now - last < this.options.forcedRefreshCooldownMillis) return false;
    this.lastForcedRefresh.set(bundle, now);
    return true;
  }

  /**
   * Single flight: a refresh asked for while one runs shares its result when the running one covers the
   * same bundles; otherwise it starts right after it, and later askers share that one.
   */
  private refresh(bundles: readonly BundleConfig[]): Promise<CatalogueGeneration | undefined> {
    const running = this.flight;
    if (running && bundles.every((bundle) => running.bundles.has(bundle.name))) return running.promise;
    const promise: Promise<CatalogueGeneration | undefined> = (running?.promise ?? Promise.resolve(undefined))
      .then(() => this.fetchAndMerge(bundles))
      .finally(() => {
        if (this.flight?.promise === promise) this.flight = undefined;
      });
    this.flight = { bundles: new Set(bundles.map((bundle) => bundle.name)), promise };
    return promise;
  }

  private async fetchAndMerge(bundles: readonly BundleConfig[]): Promise<CatalogueGeneration | undefined> {
    const outcomes = await Promise.all(bundles.map((bundle) => this.fetchBundle(bundle)));
    for (const [i, outcome] of outcomes.entries()) {
      if (outcome) this.lastGood.set(bundles[i].name, outcome);
    }
    if (this.lastGood.size === 0) return this.generation;
    try {
      this.install(this.merge());
    } catch (error) {
      const { code, message } = error as RegistryError;
      this.options.log.warn('catalogue_refresh_rejected', { code, reason: message, keptGeneration: this.generation?.number });
    }
    return this.generation;
  }

  private async fetchBundle(bundle: BundleConfig): Promise<ValidatedManifest | undefined> {
    try {
      const validation = validateManifest(await bundle.source.fetch(), bundle);
      if (validation.ok) return validation.manifest;
      this.options.log.warn('manifest_rejected', {
        code: RegistryErrorCode.ManifestInvalid,
        bundle: bundle.name,
        source: bundle.source.location,
        problems: validation.problems.join('; '),
      });
    } catch (error) {
      const { code, message } = error as RegistryError;
      this.options.log.warn('manifest_fetch_failed', { code, bundle: bundle.name, reason: message });
    }
    return undefined;
  }

  /** All bundles' last good tools, checked for collisions and size as one catalogue. */
  private merge(): ToolDefinition[] {
    const tools: ToolDefinition[] = [];
    const owner = new Map<string, string>();
    for (const bundle of this.options.bundles) {
      for (const tool of this.lastGood.get(bundle.name)?.tools ?? []) {
        const other = owner.get(tool.name);
        if (other !== undefined) {
          throw new RegistryError(RegistryErrorCode.NameCollision, `tool ${tool.name} is offered by bundles ${other} and ${bundle.name}`);
        }
        owner.set(tool.name, bundle.name);
        tools.push(tool);
      }
    }
    if (tools.length > this.options.limits.maxTools) {
      throw new RegistryError(RegistryErrorCode.CatalogueTooLarge, `${tools.length} tools exceed the limit of ${this.options.limits.maxTools}`);
    }
    return tools;
  }

  private install(tools: ToolDefinition[]): void {
    const candidate = new CatalogueGeneration((this.generation?.number ?? 0) + 1, tools);
    if (candidate.serializedBytes > this.options.limits.maxSerializedBytes) {
      throw new RegistryError(
        RegistryErrorCode.CatalogueTooLarge,
        `the tool list takes ${candidate.serializedBytes} bytes, over the limit of ${this.options.limits.maxSerializedBytes}`,
      );
    }
    // An unchanged catalogue keeps its generation, and with it every per-generation cache.
    if (this.generation && sameCatalogue(this.generation, candidate)) return;
    this.generation = candidate;
    this.options.log.info('catalogue_generation_installed', { generation: candidate.number, tools: candidate.size });
  }
}

function sameCatalogue(a: CatalogueGeneration, b: CatalogueGeneration): boolean {
  if (a.toolsListResult.json !== b.toolsListResult.json) return false;
  for (const [name, tool] of a.tools) {
    const other = b.tools.get(name);
    if (!other || other.endpoint.href !== tool.endpoint.href || other.timeoutMillis !== tool.timeoutMillis) return false;
  }
  return true;
}
