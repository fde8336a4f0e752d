import type { ToolDefinition, ToolTarget } from '@toolmesh/registry';
import type { RequestContext } from '@toolmesh/transport-http/server';

import type { ToolCallOutcome } from '../../call/tool-call-outcome';
import type { CallExtras } from '../tool-call';

/**
 * Calls a tool of one source kind (`ToolTarget['kind']`): a manifest's tool service, an OpenAPI operation or
 * an MCP server. The execution service has checked the arguments and the deadline; the invoker does the
 * rest of the call (its concurrency slot, the request, the reply, the metrics and the log line) and never
 * throws for what its source does. One module per kind: a new source kind is a new invoker and a case in
 * `ToolExecutionService.invoke`.
 */
export interface ToolInvoker<Target extends ToolTarget> {
  invoke(
    tool: ToolDefinition,
    target: Target,
    args: Record<string, unknown>,
    context: RequestContext,
    extras: CallExtras,
    timeoutMillis: number,
  ): Promise<ToolCallOutcome>;
}
