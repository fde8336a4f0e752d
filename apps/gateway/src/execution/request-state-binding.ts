import type { RequestContext } from '@toolmesh/transport-http/server';

import type { StateBinding } from '../call/request-state-seal';
import { callerPart } from './idempotency-key';

/**
 * What the `requestState` of a call's MRTR round is sealed to: the tool, the caller as its
 * `Idempotency-Key` names it (the verified token's, else the employee numbers sent), and the arguments as
 * sent, which the client's retry repeats. Built only when a state is sealed or opened.
 */
export function stateBinding(tool: string, args: Record<string, unknown>, context: RequestContext): StateBinding {
  return { tool, principal: callerPart(context), request: JSON.stringify(args) };
}
