import type { ParsedMessage } from '@toolmesh/protocol';
import type { DispatchOutcome, RequestContext } from '@toolmesh/transport-http/server';

/**
 * One generation of the MCP protocol the gateway speaks on its one endpoint: the initialize-based 2025
 * revisions, and the stateless 2026-07-28 revision. The dispatcher classifies each message once and hands
 * it to its era, which owns the version checks, the methods, and the HTTP statuses (SPEC G25).
 */
export interface ProtocolEra {
  readonly name: string;
  dispatch(message: ParsedMessage, context: RequestContext): Promise<DispatchOutcome | undefined>;
}
