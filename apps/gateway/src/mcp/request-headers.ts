import type { RequestContext } from '@toolmesh/transport-http/server';

/** One request header's value as Node parsed it; a repeated header counts by its first value. */
export function headerValue(context: RequestContext, name: string): string | undefined {
  const value = context.headers?.[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Whether the request's `Accept` names `text/event-stream`: the client can take an event stream for an answer. */
export function acceptsEventStream(context: RequestContext): boolean {
  const accept = headerValue(context, 'accept');
  return accept !== undefined && accept.split(',').some((entry) => entry.split(';', 1)[0].trim().toLowerCase() === 'text/event-stream');
}
