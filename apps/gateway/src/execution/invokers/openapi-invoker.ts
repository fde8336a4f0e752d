import type { ToolDefinition, ToolTarget } from '@toolmesh/registry';
import type { RequestContext } from '@toolmesh/transport-http/server';

import type { ServiceCredentials } from '../../call/service-credentials';
import type { ToolHttpRequest } from '../../tool-client/tool-client';
import { boundRequest } from './bound-request';
import { HttpInvokerDeps, HttpToolInvoker } from './http-tool-invoker';

type OpenApiTarget = Extract<ToolTarget, { kind: 'openapi' }>;

/**
 * An OpenAPI operation (issue 27, ADR 0019): its arguments placed by its binding (bound-request.ts), with
 * the credentials its security schemes need; the reply's body is the result, with no `data` envelope.
 */
export class OpenApiInvoker extends HttpToolInvoker<OpenApiTarget> {
  protected readonly replyForm = 'plain';

  constructor(
    deps: HttpInvokerDeps,
    /** The secrets of the bundles' security schemes; without them such an operation is not called. */
    private readonly credentials: ServiceCredentials | undefined,
  ) {
    super(deps);
  }

  protected request(
    tool: ToolDefinition,
    target: OpenApiTarget,
    args: Record<string, unknown>,
    headers: Record<string, string>,
    timeoutMillis: number,
    context: RequestContext,
  ): ToolHttpRequest | { problem: string } {
    const asUser = this.deps.userTokens?.of(tool.routeToken) !== undefined;
    const bound = boundRequest(target.http, args, headers, { store: this.credentials, routeToken: tool.routeToken, asUser });
    if ('problem' in bound) return bound;
    return { endpoint: tool.endpoint, timeoutMillis, hangUp: context.hangUp, headers, ...bound };
  }
}
