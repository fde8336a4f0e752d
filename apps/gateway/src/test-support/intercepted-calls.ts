import type { RequestContext } from '@toolmesh/transport-http/server';

import type { InterceptedCall } from '../interceptors/interceptor';
import { testTool } from './test-tool';

/** A call of `tool` with `args`, its request context as small as the chain reads it. */
export function testCall(args: Record<string, unknown>, tool = testTool('echo')): InterceptedCall {
  const context: RequestContext = { guid: 'g-1', requestId: 'r-1', deadline: performance.now() + 10_000, receivedAt: performance.now() };
  return { tool, args, context };
}
