import type { CreateMessageResult, ElicitResult, ServerRequestHandlers } from '@toolmesh/mcp-client';
import { JsonRpcErrorCode } from '@toolmesh/protocol';

/** One request a 2025 MCP server sends us during a call: elicitation, sampling or roots, as it sent it. */
export interface ServerRequest {
  readonly method: 'elicitation/create' | 'sampling/createMessage' | 'roots/list';
  readonly params: Readonly<Record<string, unknown>>;
}

/** Where the requests of one forwarded call go: to the caller who made the call, one way or another. */
export interface ServerRequestRelay {
  /** Resolves with the caller's result; rejects with a `RelayRefusal` (or the caller's own JSON-RPC error). */
  ask(request: ServerRequest, signal: AbortSignal): Promise<Record<string, unknown>>;
}

/** A caller that can be asked while its call runs: a 2025 caller, on the call's response stream (issue 28). */
export interface CallerRelay extends ServerRequestRelay {
  /**
   * What the caller declared it can be asked (`elicitation`, `sampling`, `roots`) at its session's
   * `initialize`, as its session id tells: what a 2026-07-28 server is told of this caller (relayed-request.ts).
   */
  readonly declared: Readonly<Record<string, object>>;
}

/** The JSON-RPC error a server gets for a request we cannot put to anyone. */
export class RelayRefusal extends Error {
  constructor(
    message: string,
    readonly code = -32601,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

/** A roots request has no cancellation of its own to pass on. */
const NEVER_CANCELLED = new AbortController().signal;

/**
 * The client handlers of one forwarded call: each request its server sends on the call's stream goes to
 * `relay`, the call's own (the client hands them to the call they came with: no async context needed);
 * without one (the connection's own handlers: a request outside any call, or during a listing) it is
 * refused. The connection declares all three at initialize, so that any call's server may ask.
 * At most `maxWaiting` of the call's requests wait for the caller's answers at once, whichever way they
 * reach the caller (a 2025 caller's stream, a 2026 caller's `input_required`); past it a request is
 * refused to the server at once, never relayed: a server sending thousands would otherwise have each
 * kept here and put to the caller (issue 43).
 */
export function serverRequestsTo(relay: ServerRequestRelay | undefined, maxWaiting: number): ServerRequestHandlers {
  let waiting = 0;
  const ask = async (request: ServerRequest, signal: AbortSignal): Promise<Record<string, unknown>> => {
    if (!relay) throw new RelayRefusal(`${request.method} outside a call: this gateway has nobody to ask`);
    if (waiting >= maxWaiting)
      throw new RelayRefusal(
        `${request.method} not relayed: ${maxWaiting} requests of this call already wait for the caller's answers (mcp.maxRelayedRequestsPerCall)`,
        JsonRpcErrorCode.InternalError,
        { limit: 'maxRelayedRequestsPerCall', maximum: maxWaiting },
      );
    waiting++;
    try {
      return await relay.ask(request, signal);
    } finally {
      waiting--;
    }
  };
  return {
    elicitation: async (params, signal) => (await ask({ method: 'elicitation/create', params }, signal)) as ElicitResult,
    sampling: async (params, signal) => (await ask({ method: 'sampling/createMessage', params }, signal)) as CreateMessageResult,
    roots: async () => {
      const { roots } = await ask({ method: 'roots/list', params: {} }, NEVER_CANCELLED);
      if (!Array.isArray(roots)) throw new RelayRefusal('the caller answered roots/list without roots', -32603);
      return roots;
    },
  };
}
