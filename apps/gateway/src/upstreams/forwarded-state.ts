import type { InputRequired } from '../call/input-required';
import type { RequestStateSeal, StateBinding } from '../call/request-state-seal';

/**
 * What the `requestState` the gateway seals for an MCP server's tool, prompt or resource holds (issues 28,
 * 44): a 2026-07-28 server's own state, handed back to it on the retry, or the key of a request this
 * replica holds for the retry (a 2025 server asked during it). The seal (request-state-seal.ts) keeps the
 * client from writing either.
 */
const UPSTREAM = 'upstream:';
const HELD = 'held:';

export type ForwardedState = { readonly upstream: string } | { readonly held: string };

function forwardedStateText(state: ForwardedState): string {
  return 'held' in state ? `${HELD}${state.held}` : `${UPSTREAM}${state.upstream}`;
}

/** The state as sealed here; undefined for any other text (which only a leaked key could have sealed). */
export function readForwardedState(text: string): ForwardedState | undefined {
  if (text.startsWith(UPSTREAM)) return { upstream: text.slice(UPSTREAM.length) };
  if (text.startsWith(HELD)) return { held: text.slice(HELD.length) };
  return undefined;
}

/** A server's request for input as our caller gets it: the server's own state, or the key of the request held here, sealed to `binding`. */
export function sealedInput(seal: RequestStateSeal, binding: StateBinding, input: InputRequired, held: string | undefined): InputRequired {
  const state = held !== undefined ? { held } : input.requestState !== undefined ? { upstream: input.requestState } : undefined;
  return seal.sealInput(binding, { ...input, ...(state && { requestState: forwardedStateText(state) }) });
}
