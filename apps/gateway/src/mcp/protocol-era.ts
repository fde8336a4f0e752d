import type { ParsedMessage } from '@toolmesh/protocol';
import type { DispatchOutcome, RequestContext } from '@toolmesh/transport-http/server';

/**
 * One generation of the MCP protocol the gateway speaks. Today there is one, the initialize-based
 * 2025 revisions; the stateless 2026-07-28 revision will be a second era beside it, claiming the
 * messages that carry its per-request `_meta` (docs/architecture.md, "The gateway").
 */
export interface ProtocolEra {
  readonly name: string;
  claims(message: ParsedMessage, context: RequestContext): boolean;
  dispatch(message: ParsedMessage, context: RequestContext): Promise<DispatchOutcome | undefined>;
}
