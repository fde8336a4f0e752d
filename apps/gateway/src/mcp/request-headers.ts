import type { RequestContext } from '@toolmesh/transport-http/server';

/** One request header's value as Node parsed it; a repeated header counts by its first value. */
export function headerValue(context: RequestContext, name: string): string | undefined {
  const value = context.headers?.[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * The last `Accept` read and its answer: a client sends the same one with every request, and reading it
 * anew split it into strings on every 2025 tool call (docs/adr/0005-gateway-hot-path.md).
 */
let lastAccept: { readonly value: string; readonly eventStream: boolean } | undefined;

/** Whether the request's `Accept` names `text/event-stream`: the client can take an event stream for an answer. */
export function acceptsEventStream(context: RequestContext): boolean {
  const accept = headerValue(context, 'accept');
  if (accept === undefined) return false;
  if (lastAccept?.value !== accept) lastAccept = { value: accept, eventStream: namesEventStream(accept) };
  return lastAccept.eventStream;
}

function namesEventStream(accept: string): boolean {
  return accept.split(',').some((entry) => entry.split(';', 1)[0].trim().toLowerCase() === 'text/event-stream');
}
