import type { HttpBinding } from '@toolmesh/registry';

import type { ServiceCredentials } from '../../call/service-credentials';
import { outboundPath } from '../../tool-client/outbound-path';

/** An OpenAPI call's request line and body, built from its tool's binding and validated arguments. */
export interface BoundRequest {
  readonly method: string;
  /** Path and query, after the tool's origin. */
  readonly path: string;
  readonly body?: string;
}

/** Visible ASCII, space and tab: what a header value may hold; a value with CR or LF could add headers. */
const HEADER_VALUE = /^[\t\x20-\x7e]*$/;

/**
 * Places an OpenAPI tool's arguments (issue 27): path and query values by outboundPath, header parameters
 * as headers (printable ASCII only; the gateway's own headers, already in `headers`, win), the body argument
 * as the JSON body, the bundle's own headers (`openapi.headers`, issue 45: after the gateway's, before any
 * argument's), and the credentials the operation needs from the bundle's configuration, never from the
 * caller (they win over everything, except over the user's own token of a call that acts as its user). `headers` is the call's own object, added to in place. A problem is
 * the caller's (or the operator's) to fix, named in an `isError` result; the service is not called.
 */
export function boundRequest(
  binding: HttpBinding,
  args: Readonly<Record<string, unknown>>,
  headers: Record<string, string>,
  credentials: {
    readonly store: ServiceCredentials | undefined;
    readonly routeToken: string;
    /** The call carries its user's own token (`userAuthorization`, issue 48): that is its bearer or basic scheme's credential. */
    readonly asUser?: boolean;
  },
): BoundRequest | { problem: string } {
  for (const [name, value] of Object.entries(credentials.store?.headers(credentials.routeToken) ?? {})) {
    const header = name.toLowerCase();
    if (headers[header] !== undefined) continue;
    // An operator's value, but a mounted file may still end in a line break, which would add headers.
    if (!HEADER_VALUE.test(value)) return { problem: `the bundle's header ${header} has characters a header cannot carry` };
    headers[header] = value;
  }
  let credentialQuery: Array<readonly [string, string]> | undefined;
  for (const { scheme, kind, name } of binding.credentials) {
    if (credentials.asUser && (kind === 'bearer' || kind === 'basic')) continue;
    const secret = credentials.store?.secret(credentials.routeToken, scheme);
    if (secret === undefined) return { problem: `its credential for security scheme ${scheme} is not configured` };
    if (kind === 'query') (credentialQuery ??= []).push([name ?? scheme, secret]);
    else if (kind === 'header') headers[name ?? scheme] = secret;
    else headers['authorization'] = kind === 'bearer' ? `Bearer ${secret}` : `Basic ${Buffer.from(secret).toString('base64')}`;
  }
  const path = outboundPath(binding, args, credentialQuery);
  if (typeof path !== 'string') return path;
  for (const { argument, header } of binding.headers) {
    const value = args[argument];
    if (value === undefined || value === null || headers[header] !== undefined) continue;
    const text = String(value);
    if (!HEADER_VALUE.test(text)) return { problem: `arguments.${argument} has characters a header cannot carry` };
    headers[header] = text;
  }
  const body = binding.body === undefined ? undefined : args[binding.body];
  return { method: binding.method, path, ...(body !== undefined && { body: JSON.stringify(body) }) };
}
