import type { HttpBinding } from '@toolmesh/registry';

import { outboundPath } from '../tool-client/outbound-path';

/** An OpenAPI call's request, built from its tool's binding and validated arguments. */
export interface BoundRequest {
  readonly method: string;
  /** Path and query, after the tool's origin. */
  readonly path: string;
  readonly body?: string;
  /** The header parameters, then the credentials (the gateway's own correlation headers are set apart). */
  readonly headers: Record<string, string>;
  /** The credentials' headers, which win over any other. */
  readonly credentialHeaders: Record<string, string>;
}

/** A secret by security scheme name, from the bundle's configuration; `undefined` when none is configured. */
export type SecretOf = (scheme: string) => string | undefined;

/** Visible ASCII, space and tab: what a header value may hold; a value with CR or LF could add headers. */
const HEADER_VALUE = /^[\t\x20-\x7e]*$/;

/**
 * Places an OpenAPI tool's arguments (issue 27): path and query values by outboundPath, header parameters
 * as headers (printable ASCII only), the body argument as the JSON body, and the credentials the operation
 * needs from the configuration, never from the caller. A problem is the caller's (or the operator's) to fix,
 * named in an `isError` result; the service is not called.
 */
export function boundRequest(
  binding: HttpBinding,
  args: Readonly<Record<string, unknown>>,
  secretOf: SecretOf,
): BoundRequest | { problem: string } {
  const credentialHeaders: Record<string, string> = {};
  const credentialQuery: Array<readonly [string, string]> = [];
  for (const { scheme, kind, name } of binding.credentials) {
    const secret = secretOf(scheme);
    if (secret === undefined) return { problem: `its credential for security scheme ${scheme} is not configured` };
    if (kind === 'query') credentialQuery.push([name ?? scheme, secret]);
    else if (kind === 'header') credentialHeaders[name ?? scheme] = secret;
    else credentialHeaders['authorization'] = kind === 'bearer' ? `Bearer ${secret}` : `Basic ${Buffer.from(secret).toString('base64')}`;
  }
  const path = outboundPath(binding, args, credentialQuery);
  if (typeof path !== 'string') return path;
  const headers: Record<string, string> = {};
  for (const { argument, header } of binding.headers) {
    const value = args[argument];
    if (value === undefined || value === null) continue;
    const text = String(value);
    if (!HEADER_VALUE.test(text)) return { problem: `arguments.${argument} has characters a header cannot carry` };
    headers[header] = text;
  }
  const body = binding.body === undefined ? undefined : args[binding.body];
  return { method: binding.method, path, headers, credentialHeaders, ...(body !== undefined && { body: JSON.stringify(body) }) };
}
