import { SchemaCompiler } from '@toolmesh/protocol';
import type { ToolDefinition } from '@toolmesh/registry';
import type { RequestContext } from '@toolmesh/transport-http/server';

import type { InterceptedCall } from '../interceptors/interceptor';

/** A tool service's tool of bundle `bundle`, for the interceptors' unit specs. */
export function testTool(name: string, bundle = 'core'): ToolDefinition {
  return {
    name,
    publicTool: { name, inputSchema: { type: 'object' } },
    endpoint: new URL(`http://tools.internal/${name}`),
    target: { kind: 'service' },
    inputValidator: new SchemaCompiler().compile({ type: 'object' }),
    mcpHeaders: [],
    routeToken: bundle,
  };
}

/** A call of `tool` with `args`, its request context as small as the chain reads it. */
export function testCall(args: Record<string, unknown>, tool = testTool('echo')): InterceptedCall {
  const context: RequestContext = { guid: 'g-1', requestId: 'r-1', deadline: performance.now() + 10_000, receivedAt: performance.now() };
  return { tool, args, context };
}
