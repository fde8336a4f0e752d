import type { McpDispatcher, McpGetHandler } from '@toolmesh/transport-http/server';
import { classifyEra, type EraName } from './classify-era';
import type { ProtocolEra } from './protocol-era';

/** The application behind the HTTP front: each message goes to the era it belongs to. */
export function createDispatcher(eras: Record<EraName, ProtocolEra> & { legacy: { get: McpGetHandler } }): {
  dispatch: McpDispatcher;
  dispatchGet: McpGetHandler;
} {
  return {
    dispatch: (message, context) => eras[classifyEra(message, context)].dispatch(message, context),
    // Only the 2025 era has a GET stream; it answers a GET that names a modern version with 405 itself.
    dispatchGet: (context) => eras.legacy.get(context),
  };
}
