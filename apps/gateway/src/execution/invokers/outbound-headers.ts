import { CallerHeader, type RequestContext } from '@toolmesh/transport-http/server';

import { inputAnswerHeaders } from '../../call/input-required';
import type { CallerIdentity } from '../../tool-client/caller-identity';
import type { CallExtras } from '../tool-call';

/** A claim goes out as a header only when it is printable ASCII of a sane length: anything else is left out, never sent mangled. */
const HEADER_SAFE_CLAIM = /^[\x20-\x7E]{1,256}$/;

export interface OutboundHeaderSettings {
  /** Forward the caller's Authorization header to tool services (SPEC G11). */
  readonly forwardAuthorization: boolean;
  /** Headers each from one claim of the caller's verified token (`auth.identityHeaders`, SPEC G27): header name, claim. */
  readonly identityHeaders?: ReadonlyArray<readonly [string, string]>;
}

/**
 * The headers of a call to a tool service (manifest or OpenAPI): the correlation ids and the caller's
 * identity (SPEC G2, G11), this gateway's address, the trace context, the `Idempotency-Key`, and a 2026
 * caller's input capabilities and answers.
 */
export class OutboundHeaders {
  constructor(
    private readonly caller: CallerIdentity,
    private readonly settings: OutboundHeaderSettings,
  ) {}

  /** `authorization`: the token the caller's was exchanged for, when the bundle exchanges it (it wins). */
  of(
    context: RequestContext,
    { trace, idempotencyKey, inputCapabilities, answers }: CallExtras,
    authorization: string | undefined,
  ): Record<string, string> {
    const { caller, settings } = this;
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      [CallerHeader.Guid]: context.guid,
      [CallerHeader.RequestId]: context.requestId,
      'x-caller-ip': caller.ip,
      'x-caller-host': caller.host,
    };
    if (context.sessionId !== undefined) headers[CallerHeader.SessionId] = context.sessionId;
    if (context.employeeNo !== undefined) headers[CallerHeader.EmployeeNo] = context.employeeNo;
    if (context.virtualEmployeeNo !== undefined) headers[CallerHeader.VirtualEmployeeNo] = context.virtualEmployeeNo;
    if (settings.forwardAuthorization && context.authorization !== undefined) headers.authorization = context.authorization;
    if (authorization !== undefined) headers.authorization = authorization;
    if (context.caller !== undefined && settings.identityHeaders !== undefined) {
      for (const [header, claim] of settings.identityHeaders) {
        const value = context.caller.claims[claim];
        const text = typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined;
        if (text !== undefined && HEADER_SAFE_CLAIM.test(text)) headers[header] = text;
      }
    }
    if (trace?.traceparent !== undefined) Object.assign(headers, trace);
    if (idempotencyKey !== undefined) headers['idempotency-key'] = idempotencyKey;
    if (inputCapabilities !== undefined) headers['mcp-client-capabilities'] = inputCapabilities;
    if (answers !== undefined) Object.assign(headers, inputAnswerHeaders(answers));
    return headers;
  }
}
