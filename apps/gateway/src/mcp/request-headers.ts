import type { RequestContext } from '@toolmesh/transport-http/server';

/** One request header's value as Node parsed it; a repeated header counts by its first value. */
export function headerValue(context: RequestContext, name: string): string | undefined {
  const value = context.headers?.[name];
  return Array.isArray(value) ? value[0] : value;
}
