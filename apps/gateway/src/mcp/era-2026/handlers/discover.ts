import { resultOutcome } from '../../outcomes';
import type { ModernRequestHandler } from '../era-2026';

export interface DiscoverSettings {
  readonly supportedVersions: readonly string[];
  readonly instructions?: string;
  /** What the era serves (declared-capabilities.ts). */
  readonly capabilities: Record<string, object>;
}

/**
 * `server/discover` (2026-07-28, MUST): the versions served and the capabilities of the methods served
 * (SPEC N7).
 */
export function discoverHandler(settings: DiscoverSettings, members: () => Record<string, unknown>): ModernRequestHandler {
  const result = {
    supportedVersions: settings.supportedVersions,
    capabilities: settings.capabilities,
    ...(settings.instructions !== undefined && { instructions: settings.instructions }),
  };
  return async (_params, _context, id) => resultOutcome(id, result, members());
}
