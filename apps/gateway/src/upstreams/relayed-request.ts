import type { InputRequiredResult, RelayedMethod, RelayedResults } from '@toolmesh/mcp-client';
import type { RequestContext } from '@toolmesh/transport-http/server';

import { type InputRequired, isInputRequestMethod, missingCapabilities } from '../call/input-required';
import { GatewayError, GatewayErrorCode } from '../errors/gateway-errors';
import type { CallerStream } from './caller-stream';
import type { ForwardedState } from './forwarded-state';
import type { HeldCalls } from './held-calls';
import { RelayedCall } from './relayed-call';
import { type CallerRelay, RelayRefusal, type ServerRequest } from './server-request-relay';
import type { UpstreamCall, UpstreamConnection } from './upstream-connection';

/** What a server answered a relayed request: its result as it sent it, or its own `input_required` (2026-07-28). */
export type UpstreamAnswer = RelayedResults[RelayedMethod] | InputRequiredResult;

/**
 * One request to an MCP server whose server may ask our caller for input on the way (issues 28, 44): a
 * tool's call, a prompt's get or a resource's read, each relayed the one way this module has, and what of
 * our caller goes with it.
 */
export interface RelayedRequest {
  readonly method: RelayedMethod;
  /** The tool's or prompt's name on its server, or the resource's URI there. */
  readonly target: string;
  /** The call's or the prompt's arguments; none for a read. */
  readonly args?: Record<string, unknown>;
  /** A retry's answers, and the state the gateway sealed for it, opened. */
  readonly answers?: { readonly inputResponses?: Record<string, unknown>; readonly state?: ForwardedState };
  /** The input capabilities a 2026 caller declared; undefined for a 2025 caller, who cannot be asked. */
  readonly callerCapabilities?: Readonly<Record<string, unknown>>;
  /** A 2025 caller that can be asked on its request's event stream. */
  readonly callerRelay?: CallerRelay;
  /** The caller as the answer reaches it: told the progress and log messages it asked for, and of its going away. */
  readonly callerStream?: CallerStream;
  /** How many rounds of a 2026-07-28 server's `input_required` the gateway already answered for a 2025 caller. */
  readonly bridgedRounds?: number;
}

/**
 * How a relayed request ends, in the words of its kind (a call's outcome, a read's result or error): what
 * only the kind knows, given the request so that one set of ends serves every request of the kind.
 */
export interface RelayEnds<T, R extends RelayedRequest = RelayedRequest> {
  /** The server's result (never its `input_required`, which is `inputRequired`'s). */
  answered(answer: RelayedResults[RelayedMethod], request: R): T;
  /** No answer came (the server's JSON-RPC error, a lost connection, no answer in time, an open circuit). */
  failed(error: unknown, request: R): T;
  /** The server asks our caller for input: a 2026-07-28 server's own round, or a 2025 server's requests now `held` here. */
  inputRequired(input: InputRequired, held: string | undefined, request: R): T;
  /** A retry's request is not held here (`gone`: another replica, or too late), or too many are held to hold this one (`full`). */
  notHeld(why: 'gone' | 'full', request: R): T;
}

/** What relaying needs of this replica: the server's bundle and connection, and the requests held for a retry. */
export interface ForwardingTo {
  /** The MCP server's bundle, whose held requests are counted together. */
  readonly bundle: string;
  /** The connection, or while it is being made, its promise. */
  readonly connection: UpstreamConnection | Promise<UpstreamConnection>;
  readonly held: HeldCalls<UpstreamAnswer>;
}

/**
 * Relays one request to its MCP server with what is left of the deadline, `meta` (correlation ids, trace
 * context), the caller's hang-up as its cancellation, and the server's progress and log messages to a
 * caller that asked for them. A request the server sends on the way is put to a 2026 caller as
 * `input_required` while the request is held here for the retry (not held, `notHeld('full')`, when as many
 * as `mcp.heldCalls` allows are held), and to a 2025 caller on its request's event stream; a 2026 caller
 * that did not declare what it needs, or a 2025 caller that cannot take a stream, is not asked (the server
 * gets an error answer). A retry whose state names a held request goes on with it.
 * Not async: it awaits nothing itself, and an async function that returns a promise costs two more turns
 * of the microtask queue on every call (docs/adr/0005-gateway-hot-path.md).
 */
export function forwardRelayed<T, R extends RelayedRequest>(
  to: ForwardingTo,
  request: R,
  context: RequestContext,
  meta: Record<string, unknown>,
  timeoutMillis: number,
  ends: RelayEnds<T, R>,
): Promise<T> {
  const state = request.answers?.state;
  if (state !== undefined && 'held' in state) {
    const held = to.held.take(state.held);
    if (held === undefined) return Promise.resolve(ends.notHeld('gone', request));
    held.answer(request.answers?.inputResponses);
    return follow(held, request, context, meta, timeoutMillis, to, ends);
  }
  const answers: { inputResponses?: Record<string, unknown>; requestState?: string } = {};
  if (request.answers?.inputResponses) answers.inputResponses = request.answers.inputResponses;
  if (state) answers.requestState = state.upstream;
  const relayed = new RelayedCall<UpstreamAnswer>((relay) =>
    upstreamRequest(to.connection, request, {
      timeoutMillis,
      meta,
      // A 2025 caller's are what its session declared: a 2026-07-28 server then asks it what it can answer.
      callerCapabilities: request.callerCapabilities ?? request.callerRelay?.declared ?? {},
      answers,
      relay,
      deadline: relay.deadline,
      onProgress: request.callerStream?.progress,
      onLog: request.callerStream?.log,
      logLevel: request.callerStream?.logLevel,
    }),
  );
  return follow(relayed, request, context, meta, timeoutMillis, to, ends);
}

/** The request on the server's connection: at once when the connection is made, else once it is. A failure is the promise's, never thrown. */
function upstreamRequest(connection: ForwardingTo['connection'], request: RelayedRequest, options: UpstreamCall): Promise<UpstreamAnswer> {
  const { method, target, args } = request;
  try {
    if (connection instanceof Promise) return connection.then((open) => open.relayRequest(method, target, args, options));
    return connection.relayRequest(method, target, args, options);
  } catch (error) {
    return Promise.reject(error);
  }
}

/** Follows the request within this request's deadline and hang-up, until it ends or asks our caller for input. */
async function follow<T, R extends RelayedRequest>(
  relayed: RelayedCall<UpstreamAnswer>,
  request: R,
  context: RequestContext,
  meta: Record<string, unknown>,
  timeoutMillis: number,
  to: ForwardingTo,
  ends: RelayEnds<T, R>,
): Promise<T> {
  const { hangUp } = context;
  relayed.deadline.start(timeoutMillis);
  const onHangUp = () => relayed.cancel('the caller hung up');
  hangUp?.onHangUp(onHangUp);
  request.callerStream?.onClose(() => relayed.cancel('the caller cancelled the request or closed its stream'));
  try {
    for (;;) {
      let progress;
      try {
        progress = await relayed.next();
      } catch (error) {
        return ends.failed(error, request);
      }
      if ('ended' in progress) {
        const answer = progress.ended;
        if (!isInputRequired(answer)) return ends.answered(answer, request);
        const { callerRelay } = request;
        // A 2025 caller makes no retry: the gateway asks it on its stream, and retries for it.
        if (request.callerCapabilities === undefined && callerRelay !== undefined)
          // Awaited here, so the caller's hang-up still cancels while it is asked.
          return await retriedForCaller(answer, callerRelay, relayed.signal, request, context, meta, timeoutMillis, to, ends);
        return ends.inputRequired(inputOf(answer), undefined, request);
      }
      const input: InputRequired = { inputRequests: Object.fromEntries(progress.asks) };
      const declared = request.callerCapabilities;
      if (declared === undefined) {
        // A 2025 caller is asked on its request's event stream; which of them it can answer was declared at an
        // initialize this stateless gateway never kept, so one that cannot answers with an error of its own.
        const { callerRelay } = request;
        if (callerRelay === undefined) relayed.refuse(new RelayRefusal('the caller of this request cannot take an event stream'));
        else for (const [key, asked] of progress.asks) relayed.settle(key, callerRelay.ask(asked, relayed.signal));
        continue;
      }
      const missing = Object.keys(missingCapabilities(input, declared));
      if (missing.length > 0) {
        relayed.refuse(new RelayRefusal(`the caller of this request did not declare ${missing.join(', ')}`));
        relayed.cancel('the caller cannot answer');
        return ends.inputRequired(input, undefined, request); // answered -32021 by the 2026 era, naming what is missing
      }
      relayed.deadline.stop();
      const held = to.held.hold(relayed, to.bundle);
      if (held !== undefined) return ends.inputRequired(input, held, request);
      relayed.cancel('the gateway holds as many requests waiting for input as it may');
      return ends.notHeld('full', request);
    }
  } finally {
    hangUp?.offHangUp(onHangUp);
  }
}

/**
 * A 2026-07-28 server's `input_required` for a 2025 caller (issue 44): each of its requests is put to the
 * caller on its request's event stream, as a 2025 server's would be, and the request is sent again with the
 * answers and the server's `requestState`, within a deadline of its own, as the caller's own retry would
 * be. At most BRIDGED_ROUNDS rounds: a server that keeps asking cannot hold the caller's stream for ever.
 * A caller's refusal of a request (its JSON-RPC error) ends the request with it.
 */
async function retriedForCaller<T, R extends RelayedRequest>(
  answer: InputRequiredResult,
  callerRelay: CallerRelay,
  signal: AbortSignal,
  request: R,
  context: RequestContext,
  meta: Record<string, unknown>,
  timeoutMillis: number,
  to: ForwardingTo,
  ends: RelayEnds<T, R>,
): Promise<T> {
  const round = (request.bridgedRounds ?? 0) + 1;
  if (round > BRIDGED_ROUNDS)
    return ends.failed(
      new GatewayError(
        GatewayErrorCode.UpstreamFailed,
        `the MCP server of bundle ${to.bundle} asked for input more than ${BRIDGED_ROUNDS} times in one request`,
      ),
      request,
    );
  const inputResponses: Record<string, unknown> = {};
  try {
    await Promise.all(
      Object.entries(answer.inputRequests ?? {}).map(async ([key, asked]) => {
        if (!isServerRequest(asked))
          throw new RelayRefusal(`the server asked for ${String(asked.method)}, which no caller can answer`, -32603);
        inputResponses[key] = await callerRelay.ask(asked, signal);
      }),
    );
  } catch (error) {
    return ends.failed(error, request);
  }
  const answers = { inputResponses, ...(answer.requestState !== undefined && { state: { upstream: answer.requestState } }) };
  return forwardRelayed(to, { ...request, answers, bridgedRounds: round }, context, meta, timeoutMillis, ends);
}

/** Rounds of a 2026-07-28 server's `input_required` the gateway answers for a 2025 caller in one request. */
const BRIDGED_ROUNDS = 8;

function isServerRequest(asked: { readonly method: string; readonly params?: unknown }): asked is ServerRequest {
  return isInputRequestMethod(asked.method);
}

function isInputRequired(answer: UpstreamAnswer): answer is InputRequiredResult {
  return (answer as { resultType?: unknown }).resultType === 'input_required';
}

function inputOf({ inputRequests, requestState }: InputRequiredResult): InputRequired {
  return { ...(inputRequests !== undefined && { inputRequests }), ...(requestState !== undefined && { requestState }) };
}
