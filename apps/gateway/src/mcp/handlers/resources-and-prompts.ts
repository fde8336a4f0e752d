import type { CompletionParams } from '@toolmesh/mcp-client';
import { invalidParams, jsonRpcError, JsonRpcErrorCode, McpMethod, type RequestId } from '@toolmesh/protocol';
import type { RequestContext } from '@toolmesh/transport-http/server';

import { inputAnswersProblem, inputCapabilitiesDeclared, readInputAnswers } from '../../call/input-required';
import type { StateRefusal } from '../../call/request-state-seal';
import type { FeatureCaller, FederatedFeatures, Forwarded } from '../../upstreams/federated-features';
import { HELD_CALL_MILLIS } from '../../upstreams/held-calls';
import type { EraErrors } from '../era-errors';
import type { HandlerResult, RequestHandler } from './method-handler';
import { declaredCapabilitiesOf, type ToolsCallEra } from './tools-call';

/** Cursors are opaque to clients; inside, the offset of the page, so any replica holding the same lists can read them. */
const CURSOR_PREFIX = 'toolmesh-offset:';

/** Why a retry's `requestState` was refused, as its -32602 says. */
const STATE_REFUSALS: Readonly<Record<StateRefusal | 'not_held_here', string>> = {
  not_sealed_here: 'was not issued by this gateway for this request, or was altered',
  expired: 'has expired (mcp.requestStateTtlSeconds)',
  other_caller: 'was issued to another caller',
  other_request: 'was issued for other arguments',
  not_held_here: `names a request that is not waiting for these answers on this replica (held ${HELD_CALL_MILLIS / 1000} s at most, on the replica that asked)`,
};

/**
 * `resources/list`, `resources/templates/list`, `resources/read`, `prompts/list`, `prompts/get` and
 * `completion/complete` of the `mcpServer` bundles' servers (issues 28, 44), for either era (built with its errors). Lists are paged as
 * `tools/list` is (`pageSize`); a read or a get goes to its server (federated-features.ts), and what the
 * server answers comes back whole, or its error as the era allows. A server may ask our caller for input on
 * the way, as a tool's may (issue 44): a 2026 caller gets `input_required` and retries with its answers, a
 * 2025 caller is asked on the request's event stream (`streamToCaller`, the 2025 era's), a 2026-07-28
 * server's `input_required` too, the gateway retrying for it (relayed-request.ts); only a 2025 caller that
 * cannot take an event stream gets -32603 for such a round.
 */
export function resourcesAndPromptsHandlers(
  features: FederatedFeatures,
  errors: EraErrors,
  pageSize: number,
  streamToCaller?: ToolsCallEra['streamToCaller'],
): ReadonlyArray<[string, RequestHandler]> {
  const list =
    (member: 'resources' | 'resourceTemplates' | 'prompts'): RequestHandler =>
    async (params, _context, id) => {
      const { cursor } = params;
      if (cursor !== undefined && typeof cursor !== 'string') return invalidParams(id, `"cursor" must be a string from a previous list`);
      const page = pageOf((await features.lists())[member], cursor, pageSize);
      if (page === undefined) return invalidParams(id, 'this cursor was not issued for the current list; list again without one');
      return { result: { [member]: page.items, ...(page.nextCursor !== undefined && { nextCursor: page.nextCursor }) } };
    };
  const answer = <T extends object>(
    id: RequestId,
    forwarded: Forwarded<T>,
    caller: FeatureCaller,
    notFound: (candidates?: readonly string[]) => HandlerResult,
    uri?: string,
  ): HandlerResult => {
    if ('result' in forwarded) return { result: forwarded.result };
    if ('notFound' in forwarded) return notFound(forwarded.candidates);
    if ('invalidState' in forwarded)
      return invalidParams(id, `"requestState" ${STATE_REFUSALS[forwarded.invalidState]}; send the request again without it`);
    if (!('inputRequired' in forwarded)) return errors.upstreamFailed(id, forwarded.failed, uri);
    if (caller.callerCapabilities !== undefined) return { inputRequired: forwarded.inputRequired };
    return jsonRpcError(
      id,
      JsonRpcErrorCode.InternalError,
      'its MCP server needs input from the user or the client (an elicitation, sampling or roots request) in a round that this gateway relays to 2026-07-28 clients only',
    );
  };
  /** The request answered as `forwarded` settles: JSON, or an event stream once the server asks a 2025 caller or tells it something. */
  const relayed = async <T extends object>(
    params: Record<string, unknown>,
    context: RequestContext,
    id: RequestId,
    forward: (caller: FeatureCaller) => Promise<Forwarded<T>>,
    notFound: (candidates?: readonly string[]) => HandlerResult,
    uri?: string,
  ): Promise<HandlerResult> => {
    const answersProblem = inputAnswersProblem(params);
    if (answersProblem) return invalidParams(id, answersProblem);
    const declared = declaredCapabilitiesOf(params);
    const stream = streamToCaller?.(id, params, context);
    const answers = readInputAnswers(params);
    const caller: FeatureCaller = {
      ...(declared && { callerCapabilities: inputCapabilitiesDeclared(declared) }),
      ...(answers && { answers }),
      ...(stream && { callerRelay: stream.relay, callerStream: stream }),
    };
    const answered = forward(caller).then((forwarded) => answer(id, forwarded, caller, notFound, uri));
    if (stream === undefined) return answered;
    // The answer is JSON unless something reaches the caller first: then an event stream carries both.
    return (await stream.firstOf(answered)) ?? { answered: stream.streamed(answered) };
  };

  const read: RequestHandler = async (params, context, id) => {
    const { uri } = params;
    if (typeof uri !== 'string') return invalidParams(id, '"uri" must be a string');
    return relayed(
      params,
      context,
      id,
      (caller) => features.readResource(uri, context, caller),
      (candidates) => errors.resourceNotFound(id, uri, candidates),
      uri,
    );
  };
  const get: RequestHandler = async (params, context, id) => {
    const { name, arguments: args } = params;
    if (typeof name !== 'string') return invalidParams(id, '"name" must be a string');
    if (args !== undefined && !isStringRecord(args)) return invalidParams(id, '"arguments" must be an object of strings');
    return relayed(
      params,
      context,
      id,
      (caller) => features.getPrompt(name, args, context, caller),
      () => invalidParams(id, `no prompt named ${JSON.stringify(name.slice(0, 64))}`),
    );
  };
  const complete: RequestHandler = async (params, context, id) => {
    const problem = completionProblem(params);
    if (problem !== undefined) return invalidParams(id, problem);
    const request = params as unknown as CompletionParams;
    const forwarded = await features.complete(request, context);
    if ('result' in forwarded) return { result: forwarded.result };
    if ('failed' in forwarded) return errors.upstreamFailed(id, forwarded.failed);
    const { ref } = request;
    return invalidParams(
      id,
      ref.type === 'ref/prompt'
        ? `no prompt named ${JSON.stringify(ref.name.slice(0, 64))}`
        : `no resource template ${JSON.stringify(ref.uri.slice(0, 200))}`,
    );
  };
  return [
    [McpMethod.ResourcesList, list('resources')],
    [McpMethod.ResourceTemplatesList, list('resourceTemplates')],
    [McpMethod.ResourcesRead, read],
    [McpMethod.PromptsList, list('prompts')],
    [McpMethod.PromptsGet, get],
    [McpMethod.CompletionComplete, complete],
  ];
}

/** What is wrong with a `completion/complete`'s params, if anything: a prompt or template `ref`, an argument's name and value. */
function completionProblem(params: Record<string, unknown>): string | undefined {
  const ref = params.ref as Record<string, unknown> | undefined;
  if (typeof ref !== 'object' || ref === null) return '"ref" must be an object';
  if (ref.type === 'ref/prompt' && typeof ref.name !== 'string') return '"ref.name" must be a string';
  if (ref.type === 'ref/resource' && typeof ref.uri !== 'string') return '"ref.uri" must be a string';
  if (ref.type !== 'ref/prompt' && ref.type !== 'ref/resource') return '"ref.type" must be "ref/prompt" or "ref/resource"';
  const argument = params.argument as Record<string, unknown> | undefined;
  if (typeof argument !== 'object' || argument === null || typeof argument.name !== 'string' || typeof argument.value !== 'string')
    return '"argument" must be an object with a string "name" and "value"';
  const context = params.context as Record<string, unknown> | undefined;
  if (
    context !== undefined &&
    (typeof context !== 'object' || context === null || (context.arguments !== undefined && !isStringRecord(context.arguments)))
  )
    return '"context.arguments" must be an object of strings';
  return undefined;
}

/** The page a cursor names (none: the first), or undefined for a cursor these lists did not issue; skills-methods.ts pages the same way. */
export function pageOf(
  items: readonly object[],
  cursor: string | undefined,
  pageSize: number,
): { items: readonly object[]; nextCursor?: string } | undefined {
  let offset = 0;
  if (cursor !== undefined) {
    const match = new RegExp(`^${CURSOR_PREFIX}([1-9]\\d{0,8})$`).exec(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (match === null || Number(match[1]) >= items.length) return undefined;
    offset = Number(match[1]);
  }
  const end = offset + pageSize;
  const next = end < items.length ? Buffer.from(`${CURSOR_PREFIX}${end}`).toString('base64url') : undefined;
  return { items: items.slice(offset, end), ...(next !== undefined && { nextCursor: next }) };
}

function isStringRecord(value: unknown): value is Record<string, string> {
  return (
    typeof value === 'object' && value !== null && !Array.isArray(value) && Object.values(value).every((entry) => typeof entry === 'string')
  );
}
