import { invalidParams, LATEST_PROTOCOL_VERSION } from '@toolmesh/protocol';

import type { RequestHandler } from '../../handlers/method-handler';

export interface InitializeSettings {
  readonly supportedVersions: readonly string[];
  readonly preferredVersion: string;
  readonly serverInfo: { name: string; title: string; version: string };
  /** What the era serves (declared-capabilities.ts). */
  readonly capabilities: Record<string, object>;
}

/**
 * `initialize` (SPEC G5, G7): echoes the client's version when served, else offers the preferred one (the
 * spec's negotiation; the seed always answered with the preferred version). The capabilities are those the
 * era serves (N7). `_meta.toolServers` carries the
 * routing hints in memory, read without I/O.
 */
export function initializeHandler(
  settings: InitializeSettings,
  routingHints: () => readonly unknown[] | undefined = () => undefined,
): RequestHandler {
  return async (params, _context, id) => {
    const requested = params.protocolVersion;
    if (typeof requested !== 'string' || requested.length === 0) {
      return invalidParams(id, `"protocolVersion" must be a string, e.g. "${LATEST_PROTOCOL_VERSION}"`);
    }
    if (params.capabilities !== undefined && !isObject(params.capabilities)) return invalidParams(id, '"capabilities" must be an object');
    if (params.clientInfo !== undefined && !isObject(params.clientInfo)) return invalidParams(id, '"clientInfo" must be an object');
    const protocolVersion = settings.supportedVersions.includes(requested) ? requested : settings.preferredVersion;
    const toolServers = routingHints();
    return {
      result: {
        protocolVersion,
        capabilities: settings.capabilities,
        serverInfo: settings.serverInfo,
        // Routing hints are optional: a lookup that never worked omits them, never fails initialize (G18).
        ...(toolServers !== undefined && { _meta: { toolServers } }),
      },
    };
  };
}

function isObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
