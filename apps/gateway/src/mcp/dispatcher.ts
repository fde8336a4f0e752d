import { invalidRequest, serializeErrorResponse, type ParsedMessage } from '@toolmesh/protocol';
import type { McpDispatcher, RequestContext } from '@toolmesh/transport-http/server';
import type { ProtocolEra } from './protocol-era';

/** Hands each message to the first era that claims it. */
export function createDispatcher(eras: readonly ProtocolEra[]): McpDispatcher {
  return async (message: ParsedMessage, context: RequestContext) => {
    const era = eras.find((candidate) => candidate.claims(message, context));
    if (era) return era.dispatch(message, context);
    if (message.kind !== 'request') return undefined;
    const error = invalidRequest(message.message.id, 'no protocol revision of this server understands the message');
    return { json: serializeErrorResponse(error), isError: true };
  };
}
