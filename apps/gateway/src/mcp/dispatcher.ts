import type { ParsedMessage } from '@toolmesh/protocol';
import type { DispatchOutcome, McpDispatcher, McpGetHandler, RequestContext } from '@toolmesh/transport-http/server';

import { classifyEra, type EraName } from './classify-era';
import type { ProtocolEra } from './protocol-era';

/** Told of each message once it is answered, with the era that answered it: for the request metrics (SPEC G23). */
export type AnsweredObserver = (
  message: ParsedMessage,
  era: EraName,
  outcome: DispatchOutcome | undefined,
  context: RequestContext,
) => void;

export interface Dispatcher {
  readonly dispatch: McpDispatcher;
  readonly dispatchGet: McpGetHandler;
  /** For the HTTP front's `onAnswered`: the observer, told the era recorded when the message was dispatched. */
  readonly onAnswered?: (message: ParsedMessage, outcome: DispatchOutcome | undefined, context: RequestContext) => void;
}

/**
 * The application behind the HTTP front: each message goes to the era it belongs to, classified once. The
 * observer is told at the front once the answer is ready, which adds no async hop to the call (ADR 0005);
 * the era is kept per message meanwhile, so what is counted is the era that answered.
 */
export function createDispatcher(
  eras: Record<EraName, ProtocolEra> & { legacy: { get: McpGetHandler } },
  observe?: AnsweredObserver,
): Dispatcher {
  // Only the 2025 era has a GET stream; it answers a GET that names a modern version with 405 itself.
  const dispatchGet: McpGetHandler = (context) => eras.legacy.get(context);
  if (observe === undefined)
    return { dispatch: (message, context) => eras[classifyEra(message, context)].dispatch(message, context), dispatchGet };
  const answeringEra = new WeakMap<ParsedMessage, EraName>();
  return {
    dispatch: (message, context) => {
      const era = classifyEra(message, context);
      answeringEra.set(message, era);
      return eras[era].dispatch(message, context);
    },
    dispatchGet,
    onAnswered: (message, outcome, context) => {
      const era = answeringEra.get(message);
      if (era !== undefined) observe(message, era, outcome, context);
    },
  };
}
