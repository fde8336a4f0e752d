import {
  McpMethod,
  methodNotFound,
  serializeErrorResponse,
  serializeResultResponse,
  type ParsedMessage,
} from '@toolmesh/protocol';
import type { DispatchOutcome, RequestContext } from '@toolmesh/transport-http/server';
import type { ProtocolEra } from '../protocol-era';
import type { RequestHandler } from './method-handler';

/**
 * The initialize-based revisions (2025-03-26, 2025-06-18, 2025-11-25), served statelessly: every request
 * stands alone, `notifications/initialized` is acknowledged and forgotten (SPEC G7).
 */
export class Era2025 implements ProtocolEra {
  readonly name = '2025';

  constructor(private readonly requests: ReadonlyMap<string, RequestHandler>) {}

  claims(): boolean {
    return true; // the only era so far; the 2026 era will claim its own messages first
  }

  async dispatch(message: ParsedMessage, context: RequestContext): Promise<DispatchOutcome | undefined> {
    // Notifications (initialized, cancelled, ...) are acknowledged with 202 and nothing is kept. This
    // server sends no requests, so client responses are acknowledged the same way.
    if (message.kind !== 'request') return undefined;
    const { id, method } = message.message;
    const params = (message.message.params ?? {}) as Record<string, unknown>;
    const handler = this.requests.get(method);
    if (!handler) return { json: serializeErrorResponse(methodNotFound(id, method)), isError: true };
    const outcome = await handler(params, context, id);
    return 'result' in outcome
      ? { json: serializeResultResponse(id, outcome.result), isError: false }
      : { json: serializeErrorResponse(outcome), isError: true };
  }
}

/** The method table of the 2025 era, in one place. */
export function era2025Methods(handlers: {
  initialize: RequestHandler;
  toolsList: RequestHandler;
  toolsCall: RequestHandler;
}): ReadonlyMap<string, RequestHandler> {
  return new Map<string, RequestHandler>([
    [McpMethod.Initialize, handlers.initialize],
    [McpMethod.Ping, async () => ({ result: {} })],
    [McpMethod.ToolsList, handlers.toolsList],
    [McpMethod.ToolsCall, handlers.toolsCall],
  ]);
}

