import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** The five optional caller headers of SPEC G2, lower-cased as Node delivers them. */
export const CallerHeader = {
  Guid: 'guid',
  RequestId: 'x-request-id',
  SessionId: 'mcp-session-id',
  EmployeeNo: 'employee-no',
  VirtualEmployeeNo: 'virtual-employee-no',
} as const;

export interface CorrelationValues {
  guid: string;
  requestId: string;
  sessionId?: string;
  employeeNo?: string;
  virtualEmployeeNo?: string;
}

export type CorrelationResult = { ok: true; values: CorrelationValues } | { ok: false; header: string; problem: string };

/** What a caller header's value must look like, and what the caller is told when it does not. */
interface ValueRule {
  readonly pattern: RegExp;
  readonly problem: string;
}

/** Correlation ids are echoed in headers and logs, so they are held to a short, inert alphabet. */
const CORRELATION_ID: ValueRule = { pattern: /^[A-Za-z0-9._:-]{1,128}$/, problem: 'must be 1-128 characters of A-Z a-z 0-9 . _ : -' };
/**
 * Employee ids are passed through uninterpreted (they may be ciphertext), but only as visible ASCII:
 * no control characters, so nothing can split or inject a header downstream.
 */
const OPAQUE_VALUE: ValueRule = {
  pattern: /^[\x21-\x7e](?:[\x20-\x7e]{0,1022}[\x21-\x7e])?$/,
  problem: 'must be 1-1024 visible ASCII characters',
};

/** A request's headers as Node gives them: joined (`headers`) and as sent (`rawHeaders`, names and values alternating). */
type RequestHeaders = Pick<IncomingMessage, 'headers' | 'rawHeaders'>;

const CALLER_HEADERS = Object.values(CallerHeader);

/** Reads and validates the caller headers, generating `guid` and `x-request-id` when absent. */
export function readCorrelationHeaders(request: RequestHeaders): CorrelationResult {
  const { headers } = request;
  const repeated = CALLER_HEADERS.find((name) => isRepeated(request, name));
  if (repeated !== undefined) return { ok: false, header: repeated, problem: 'must be sent once' };
  const guid = headers[CallerHeader.Guid] as string | undefined;
  const requestId = headers[CallerHeader.RequestId] as string | undefined;
  const sessionId = headers[CallerHeader.SessionId] as string | undefined;
  const employeeNo = headers[CallerHeader.EmployeeNo] as string | undefined;
  const virtualEmployeeNo = headers[CallerHeader.VirtualEmployeeNo] as string | undefined;

  const refusal =
    refuseMalformed(CallerHeader.Guid, guid, CORRELATION_ID) ??
    refuseMalformed(CallerHeader.RequestId, requestId, CORRELATION_ID) ??
    refuseMalformed(CallerHeader.SessionId, sessionId, CORRELATION_ID) ??
    refuseMalformed(CallerHeader.EmployeeNo, employeeNo, OPAQUE_VALUE) ??
    refuseMalformed(CallerHeader.VirtualEmployeeNo, virtualEmployeeNo, OPAQUE_VALUE);
  if (refusal) return refusal;
  // Every member present, absent ones undefined: one object shape for every request (docs/adr/0005).
  return {
    ok: true,
    values: { guid: guid ?? randomUUID(), requestId: requestId ?? randomUUID(), sessionId, employeeNo, virtualEmployeeNo },
  };
}

function refuseMalformed(header: string, value: string | undefined, rule: ValueRule): CorrelationResult | undefined {
  return value === undefined || rule.pattern.test(value) ? undefined : { ok: false, header, problem: rule.problem };
}

/**
 * Node joins a repeated header's values with ", ", which an employee id may itself contain: only a value
 * with a comma is looked up in the raw headers (so the common request pays nothing), and a caller header
 * sent twice is refused rather than forwarded as "A, B".
 */
function isRepeated({ headers, rawHeaders }: RequestHeaders, name: string): boolean {
  const value = headers[name];
  if (value === undefined || !value.includes(',')) return false;
  let sent = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) if (rawHeaders[i].toLowerCase() === name) sent += 1;
  return sent > 1;
}
