import type { ToolDefinition, ToolTarget } from '@toolmesh/registry';
import type { RequestContext } from '@toolmesh/transport-http/server';

import type { ToolHttpRequest } from '../../tool-client/tool-client';
import { HttpToolInvoker } from './http-tool-invoker';

type ServiceTarget = Extract<ToolTarget, { kind: 'service' }>;

/** A manifest's tool (SPEC G9-G13): one POST of the arguments to its fixed endpoint; the reply's `data` is the result. */
export class ServiceInvoker extends HttpToolInvoker<ServiceTarget> {
  protected readonly replyForm = 'envelope';

  protected request(
    tool: ToolDefinition,
    _target: ServiceTarget,
    args: Record<string, unknown>,
    headers: Record<string, string>,
    timeoutMillis: number,
    context: RequestContext,
  ): ToolHttpRequest {
    return { endpoint: tool.endpoint, body: JSON.stringify(args), headers, timeoutMillis, hangUp: context.hangUp };
  }

  /** A manifest tool's endpoint that answers 404 or 410 is gone: its route is refreshed (same cooldown as an unknown name). */
  protected override gone(tool: ToolDefinition, context: RequestContext): void {
    this.deps.catalogue.reportStaleTool(tool, context);
  }
}
