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
}

/**
 * The resources, templates and prompts of each `mcpServer` bundle's server, last good per server (issue
 * 28), with the guarantees the catalogue gives its tools: each listing has the server's deadline (the
 * connection's `listFeatures`); a server that fails or stalls keeps its last good listing (or none) while
 * the others are served; a listing that is due is redone in the background, never waited for. Only a
 * server's very first listing is waited for, at most its deadline, as the first `tools/list` does.
 */
export class FeatureListings {
  private readonly listings = new Map<string, Listing>();
  private changes = 0;

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
      listing.value = await this.list(bundle);
      listing.dueAt = this.settings.now() + this.settings.ttlMillis;
      this.changes += 1;
    } catch (error) {
      listing.dueAt = this.settings.now() + this.settings.retryMillis;
      this.logger.warn('mcp_upstream_features_failed', { bundle, code: codeOf(error), kept: listing.value !== undefined });
    } finally {
      listing.settled = true;
      listing.running = undefined;
    }
  }
}

function codeOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' || typeof code === 'number' ? String(code) : 'failed';
}
