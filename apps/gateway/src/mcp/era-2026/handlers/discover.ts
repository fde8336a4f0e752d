import type { ModernRequestHandler } from '../era-2026';
import { resultOutcome } from '../../outcomes';

export interface DiscoverSettings {
  readonly supportedVersions: readonly string[];
  readonly instructions?: string;
}

/**
 * `server/discover` (2026-07-28, MUST): the versions served and the capabilities: tools, with `listChanged`
 * because both eras deliver `notifications/tools/list_changed` (SPEC G21), and the empty prompt and
 * resource lists (see empty-lists.ts).
 */
export function discoverHandler(settings: DiscoverSettings, members: () => Record<string, unknown>): ModernRequestHandler {
  const result = {
    supportedVersions: settings.supportedVersions,
    capabilities: { tools: { listChanged: true }, prompts: {}, resources: {} },
    ...(settings.instructions !== undefined && { instructions: settings.instructions }),
  };
  return async (_params, _context, id) => resultOutcome(id, result, members());
}
