import { remainingMillis, type RequestContext } from '@toolmesh/transport-http/server';

/**
 * The one place a forwarded request's deadline is computed (SPEC G12): what is left of the request's own,
 * capped by the gateway's cap (`mcp.maxToolTimeoutMillis`) and, for a tool, its own timeout; whole
 * milliseconds. A tool call, a resource read and a prompt get all take theirs from here.
 */
export function callTimeoutMillis(maxMillis: number, context: RequestContext, toolTimeoutMillis = Infinity): number {
  return Math.ceil(Math.min(toolTimeoutMillis, maxMillis, remainingMillis(context)));
}
