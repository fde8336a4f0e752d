import type { ModernRequestHandler } from '../era-2026';
import { resultOutcome } from '../../outcomes';

export interface DiscoverSettings {
  readonly servedVersions: readonly string[];
  readonly instructions?: string;
}

/**
 * `server/discover` (2026-07-28, MUST): the modern versions served and the capabilities. Tools only, and
 * `listChanged` because both eras deliver `notifications/tools/list_changed` (SPEC G21).
 */
export function discoverHandler(settings: DiscoverSettings, members: () => Record<string, unknown>): ModernRequestHandler {
  const result = {
    supportedVersions: settings.servedVersions,
    capabilities: { tools: { listChanged: true } },
    ...(settings.instructions !== undefined && { instructions: settings.instructions }),
  };
  return async (_params, _context, id) => resultOutcome(id, result, members());
}
