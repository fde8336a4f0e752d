import type { Logger } from '@toolmesh/transport-http/server';

import type { UpstreamFeatures } from './upstream-connection';

export interface FeatureListingSettings {
  /** How long a server's listing is served before it is listed again (`mcp.catalogue.refreshTtlMillis`). */
  readonly ttlMillis: number;
  /** How long after a failed listing the next one is tried. */
  readonly retryMillis: number;
  readonly now: () => number;
}

interface Listing {
  value?: UpstreamFeatures;
  /** When the next listing is due. */
  dueAt: number;
  /** Set once the first listing has ended, well or not: no request waits for this server again. */
  settled: boolean;
  running?: Promise<void>;
  /** Its server told a change while a listing ran, which may have been answered before it: one more follows. */
  again?: boolean;
}

/**
 * The resources, templates and prompts of each `mcpServer` bundle's server, last good per server (issue
 * 28), with the guarantees the catalogue gives its tools: each listing has the server's deadline (the
 * connection's `listFeatures`); a server that fails or stalls keeps its last good listing (or none) while
 * the others are served; a listing that is due is redone in the background, never waited for. Only a
 * server's very first listing is waited for, at most its deadline, as the first `tools/list` does. A server
 * that tells a change is listed again at once (`relist`), and a listing whose resources, templates or
 * skills differ from the last good one is told to `onResourcesChanged`'s listeners (issue 49).
 */
export class FeatureListings {
  private readonly listings = new Map<string, Listing>();
  private changes = 0;
  private readonly resourceListeners = new Set<() => void>();

  constructor(
    bundles: readonly string[],
    private readonly list: (bundle: string) => Promise<UpstreamFeatures>,
    private readonly settings: FeatureListingSettings,
    private readonly logger: Logger,
  ) {
    for (const bundle of bundles) this.listings.set(bundle, { dueAt: 0, settled: false });
  }

  /** Counts the listings that changed something: what is built from them is rebuilt when it moves. */
  get version(): number {
    return this.changes;
  }

  /** Lists `bundle`'s server again now, in the background: it told a change of its resources or prompts. */
  relist(bundle: string): void {
    const listing = this.listings.get(bundle);
    if (listing === undefined) return;
    if (listing.running !== undefined) listing.again = true;
    else listing.running = this.refresh(bundle, listing);
  }

  /**
   * Called after each listing whose resources, templates or skills differ from the server's last good ones
   * (not its first, nor its prompts: the gateway announces resource list changes only). Returns the unsubscribe function.
   */
  onResourcesChanged(listener: () => void): () => void {
    this.resourceListeners.add(listener);
    return () => this.resourceListeners.delete(listener);
  }

  /** Each server's last good listing, in configuration order (undefined for one never listed). */
  async current(): Promise<ReadonlyArray<readonly [string, UpstreamFeatures | undefined]>> {
    const now = this.settings.now();
    const firsts: Array<Promise<void>> = [];
    for (const [bundle, listing] of this.listings) {
      if (listing.running === undefined && now >= listing.dueAt) listing.running = this.refresh(bundle, listing);
      if (!listing.settled && listing.running !== undefined) firsts.push(listing.running);
    }
    if (firsts.length > 0) await Promise.all(firsts);
    return [...this.listings].map(([bundle, listing]) => [bundle, listing.value] as const);
  }

  private async refresh(bundle: string, listing: Listing): Promise<void> {
    try {
      const before = listing.value;
      listing.value = await this.list(bundle);
      listing.dueAt = this.settings.now() + this.settings.ttlMillis;
      this.changes += 1;
      if (before !== undefined && announced(before) !== announced(listing.value)) for (const listener of this.resourceListeners) listener();
    } catch (error) {
      listing.dueAt = this.settings.now() + this.settings.retryMillis;
      this.logger.warn('mcp_upstream_features_failed', { bundle, code: codeOf(error), kept: listing.value !== undefined });
    } finally {
      listing.settled = true;
      listing.running = undefined;
      if (listing.again) {
        listing.again = false;
        listing.running = this.refresh(bundle, listing);
      }
    }
  }
}

/** What of a listing `notifications/resources/list_changed` speaks for. */
function announced({ resources, resourceTemplates, skills }: UpstreamFeatures): string {
  return JSON.stringify([resources, resourceTemplates, skills]);
}

function codeOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' || typeof code === 'number' ? String(code) : 'failed';
}
