import type { PriorDiscovery, VersionNegotiationOptions } from '@modelcontextprotocol/client';

/**
 * Which protocol era a client speaks with one server (SPEC A18): `auto` probes with `server/discover`
 * and falls back to `initialize` (the SDK v2 client's rules), `legacy` always sends `initialize`,
 * a modern version (`2026-07-28`) is pinned: no fallback, anything else fails.
 */
export type EraSetting = 'auto' | 'legacy' | '2026-07-28';

export const ERA_SETTINGS: readonly EraSetting[] = ['auto', 'legacy', '2026-07-28'];

/**
 * What the probe found out about a server, to connect again without probing (the SDK's `prior`):
 * the server's `DiscoverResult` for a modern one.
 */
export type EraVerdict = PriorDiscovery;

/** The SDK client's negotiation options for a setting. */
export function versionNegotiation(era: EraSetting): VersionNegotiationOptions {
  if (era === 'auto' || era === 'legacy') return { mode: era };
  return { mode: { pin: era } };
}
