import type { DispatchOutcome, McpDispatcher, McpGetHandler } from '@toolmesh/transport-http/server';
import { classifyEra, type EraName } from './classify-era';
import type { ProtocolEra } from './protocol-era';

/** Told of every message the eras answered: for the request metrics (SPEC G23). */
export type DispatchObserver = (method: string, era: EraName, outcome: DispatchOutcome | undefined, receivedAt: number) => void;

/** The application behind the HTTP front: each message goes to the era it belongs to. */
export function createDispatcher(
  eras: Record<EraName, ProtocolEra> & { legacy: { get: McpGetHandler } },
  observe?: DispatchObserver,
): {
  dispatch: McpDispatcher;
  dispatchGet: McpGetHandler;
} {
  return {
    dispatch: async (message, context) => {
      const era = classifyEra(message, context);
      const outcome = await eras[era].dispatch(message, context);
      if (observe && message.kind !== 'response') observe(message.message.method, era, outcome, context.receivedAt);
      return outcome;
    },
    // Only the 2025 era has a GET stream; it answers a GET that names a modern version with 405 itself.
    dispatchGet: (context) => eras.legacy.get(context),
  };
}
