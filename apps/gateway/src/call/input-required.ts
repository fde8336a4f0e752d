import { CONSENT_INPUT_KEY } from './user-consent';

/**
 * A tool service's request for input from the user or the client (2026-07-28 MRTR: a multi-round-trip
 * `input_required` result). The service answers `{"inputRequired": {"inputRequests": {...},
 * "requestState": "..."}}`; the gateway relays it to a 2026 client that declared the capabilities the
 * requests need, and sends the client's answers back with the retried call (docs/manifest-format.md).
 */
export interface InputRequired {
  readonly inputRequests?: Readonly<Record<string, { readonly method: string; readonly params?: unknown }>>;
  readonly requestState?: string;
}

/** The client capability each kind of input request needs. */
const CAPABILITY_OF: ReadonlyMap<string, string> = new Map([
  ['elicitation/create', 'elicitation'],
  ['sampling/createMessage', 'sampling'],
  ['roots/list', 'roots'],
]);

/** Whether `method` is one of the requests for input a caller can be asked: elicitation, sampling or roots. */
export function isInputRequestMethod(method: unknown): boolean {
  return typeof method === 'string' && CAPABILITY_OF.has(method);
}

/** The `inputRequired` member of a reply, when it is one the gateway can relay; a reason when it is not. */
export function readInputRequired(reply: object): { ok: true; value: InputRequired } | { ok: false; problem: string } | undefined {
  if (!('inputRequired' in reply)) return undefined;
  const value = reply.inputRequired;
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { ok: false, problem: '"inputRequired" is not an object' };
  const { inputRequests, requestState } = value as Record<string, unknown>;
  if (requestState !== undefined && typeof requestState !== 'string')
    return { ok: false, problem: '"inputRequired.requestState" is not a string' };
  if (inputRequests === undefined) {
    return requestState === undefined
      ? { ok: false, problem: '"inputRequired" has neither inputRequests nor requestState' }
      : { ok: true, value: { requestState } };
  }
  if (typeof inputRequests !== 'object' || inputRequests === null || Array.isArray(inputRequests))
    return { ok: false, problem: '"inputRequired.inputRequests" is not an object' };
  for (const request of Object.values(inputRequests)) {
    if (!isInputRequestMethod((request as { method?: unknown } | null)?.method))
      return { ok: false, problem: 'an input request is not elicitation/create, sampling/createMessage or roots/list' };
  }
  return {
    ok: true,
    value: { inputRequests: inputRequests as InputRequired['inputRequests'], ...(requestState !== undefined && { requestState }) },
  };
}

/** The capabilities the requests need that the client did not declare (`{}` when none is missing). */
export function missingCapabilities(input: InputRequired, declared: Readonly<Record<string, unknown>>): Record<string, object> {
  const missing: Record<string, object> = {};
  for (const request of Object.values(input.inputRequests ?? {})) {
    const capability = CAPABILITY_OF.get(request.method) as string;
    if (declared[capability] === undefined) missing[capability] = {};
  }
  return missing;
}

/**
 * Which of the capabilities input requests need a 2026 client declared, as the tool service is told them
 * (`mcp-client-capabilities: elicitation, sampling`; empty when none): names only, so the header stays
 * small whatever the client declared.
 */
export function declaredInputCapabilities(declared: Readonly<Record<string, unknown>>): string {
  return [...new Set(CAPABILITY_OF.values())].filter((capability) => declared[capability] !== undefined).join(', ');
}

/** The input capabilities a 2026 client declared, each as it declared it (`elicitation: { form: {} }`), and nothing else. */
export function inputCapabilitiesDeclared(declared: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const capability of new Set(CAPABILITY_OF.values()))
    if (declared[capability] !== undefined) input[capability] = declared[capability];
  return input;
}

/** A 2026 client's retry after an `input_required` result: its answers, and the state to hand back byte for byte. */
export interface InputAnswers {
  readonly inputResponses?: unknown;
  readonly requestState?: string;
}

/**
 * Why a retry's answers cannot be relayed (`-32602`): `inputResponses` maps each input request's key to
 * the client's result object, and `requestState` is the string it was given.
 */
export function inputAnswersProblem(params: Record<string, unknown>): string | undefined {
  const { inputResponses, requestState } = params;
  if (requestState !== undefined && typeof requestState !== 'string')
    return '"requestState" must be the string an input_required result gave';
  if (inputResponses === undefined) return undefined;
  const isObject = (value: unknown) => typeof value === 'object' && value !== null && !Array.isArray(value);
  if (!isObject(inputResponses)) return '"inputResponses" must be an object of results keyed as the input requests were';
  return Object.values(inputResponses as object).every(isObject)
    ? undefined
    : 'each of "inputResponses" must be the result object of its input request';
}

/**
 * The retry's answers as params carry them, when they do (after `inputAnswersProblem` found none), without
 * the answer to the gateway's own consent request (user-consent.ts), which is for no tool.
 */
export function readInputAnswers(params: Record<string, unknown>): InputAnswers | undefined {
  const { requestState } = params;
  const inputResponses = withoutConsentAnswer(params.inputResponses as Record<string, unknown> | undefined);
  if (inputResponses === undefined && requestState === undefined) return undefined;
  return { ...(inputResponses !== undefined && { inputResponses }), ...(typeof requestState === 'string' && { requestState }) };
}

function withoutConsentAnswer(responses: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (responses === undefined || !(CONSENT_INPUT_KEY in responses)) return responses;
  const { [CONSENT_INPUT_KEY]: _consent, ...others } = responses;
  return Object.keys(others).length === 0 ? undefined : others;
}

/**
 * The answers go to the tool service with the same arguments body, as two headers of Base64url (so any
 * bytes are header-safe and `requestState` arrives exactly as the service issued it).
 */
export function inputAnswerHeaders(answers: InputAnswers): Record<string, string> {
  const headers: Record<string, string> = {};
  if (answers.inputResponses !== undefined)
    headers['mcp-input-responses'] = Buffer.from(JSON.stringify(answers.inputResponses)).toString('base64url');
  if (answers.requestState !== undefined) headers['mcp-request-state'] = Buffer.from(answers.requestState).toString('base64url');
  return headers;
}
