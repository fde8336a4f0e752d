import { AsyncLocalStorage } from 'node:async_hooks';

import type { CreateMessageResult, ElicitResult, ServerRequestHandlers } from '@toolmesh/mcp-client';

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
  /** Called once if the caller goes away before its call ends (it closed the stream). */
  onClose(listener: () => void): void;
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

/**
 * The relay of the call being forwarded. A 2025 server sends its requests on the stream of the call they
 * belong to, and our transport reads that stream in the call's own async context: so a request arrives
 * here in the context of its call, and the one client each server has can serve every call at once.
 */
const relays = new AsyncLocalStorage<ServerRequestRelay>();

/** Runs `call` with `relay` as the destination of the server requests it brings. */
export function withRelay<T>(relay: ServerRequestRelay | undefined, call: () => Promise<T>): Promise<T> {
  return relay === undefined ? call() : relays.run(relay, call);
}

/**
 * The client handlers of an MCP server's connection: each request goes to the relay of the call it came
 * with; one that came with none (a request outside any call, or during a listing) is refused.
 */
export function relayedServerRequests(): ServerRequestHandlers {
  const ask = (request: ServerRequest, signal: AbortSignal) => {
    const relay = relays.getStore();
    if (relay === undefined) return Promise.reject(new RelayRefusal(`${request.method} outside a call: this gateway has nobody to ask`));
    return relay.ask(request, signal);
  };
  const never = new AbortController().signal;
  return {
    elicitation: async (params, signal) => (await ask({ method: 'elicitation/create', params }, signal)) as ElicitResult,
    sampling: async (params, signal) => (await ask({ method: 'sampling/createMessage', params }, signal)) as CreateMessageResult,
    roots: async () => {
      const { roots } = await ask({ method: 'roots/list', params: {} }, never);
      if (!Array.isArray(roots)) throw new RelayRefusal('the caller answered roots/list without roots', -32603);
      return roots;
    },
  };
}
