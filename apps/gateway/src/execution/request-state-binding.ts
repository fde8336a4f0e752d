import type { RequestContext } from '@toolmesh/transport-http/server';

import type { StateBinding } from '../call/request-state-seal';
import { callerPart } from './idempotency-key';

/**
 * What the `requestState` of a call's MRTR round is sealed to: the tool, the caller as its
 * `Idempotency-Key` names it (the verified token's, else the employee numbers sent), and the arguments as
 * sent, which the client's retry repeats. Built only when a state is sealed or opened.
 */
export function stateBinding(tool: string, args: Record<string, unknown>, context: RequestContext): StateBinding {
  return { target: tool, principal: callerPart(context), request: JSON.stringify(args) };
}

/**
 * The same for a prompt's get or a resource's read whose MCP server asked for input (issue 44): bound to
 * the method with the prompt's name or the resource's URI as the caller sent it (so that it opens for no
 * tool, and for no other prompt or resource), the caller, and the prompt's arguments.
 */
export function featureStateBinding(
  method: 'prompts/get' | 'resources/read',
  target: string,
  args: Record<string, unknown> | undefined,
  context: RequestContext,
): StateBinding {
  return { target: `${method} ${target}`, principal: callerPart(context), request: JSON.stringify(args ?? {}) };
}
