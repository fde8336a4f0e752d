/**
 * What the `requestState` the gateway seals for an MCP server's tool holds (issue 28): a 2026-07-28
 * server's own state, handed back to it on the retry, or the key of a call this replica holds for the
 * retry (a 2025 server asked during it). The seal (request-state-seal.ts) keeps the client from writing either.
 */
const UPSTREAM = 'upstream:';
const HELD = 'held:';

export type ForwardedState = { readonly upstream: string } | { readonly held: string };

export function forwardedStateText(state: ForwardedState): string {
  return 'held' in state ? `${HELD}${state.held}` : `${UPSTREAM}${state.upstream}`;
}

/** The state as sealed here; undefined for any other text (which only a leaked key could have sealed). */
export function readForwardedState(text: string): ForwardedState | undefined {
  if (text.startsWith(UPSTREAM)) return { upstream: text.slice(UPSTREAM.length) };
  if (text.startsWith(HELD)) return { held: text.slice(HELD.length) };
  return undefined;
}
