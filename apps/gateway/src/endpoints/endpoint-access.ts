import type { Authentication, Authenticator } from '@toolmesh/transport-http/server';

import type { ProtectedResource } from '../auth/protected-resource';
import type { CallAdmission, RateLimitAdmission } from '../execution/call-admission';
import type { CallerAccess } from '../mcp/build-eras';

/**
 * The gateway's authenticator, then the endpoint's own scopes (issue 46): a verified caller whose token
 * lacks one is refused at the door with 403 `insufficient_scope` naming them, as a tool's call would be, so
 * a client can step up. The endpoint's path lies under the default one, so the gateway's metadata document
 * and audience are its too (RFC 9728 lets a resource's path prefix stand for the paths below it).
 */
export function requiringScopes(
  authenticate: Authenticator,
  resource: ProtectedResource,
  endpoint: { readonly name: string; readonly scopes: readonly string[] },
  onRefused?: () => void,
): Authenticator {
  const check = (authentication: Authentication): Authentication => {
    if (!('caller' in authentication)) return authentication;
    const { scopes } = authentication.caller;
    if (endpoint.scopes.every((scope) => scopes.has(scope))) return authentication;
    onRefused?.();
    return {
      refusal: {
        status: 403,
        challenge: resource.insufficientScope(endpoint.scopes, scopes),
        reason: 'insufficient_scope',
        message: `insufficient_scope: endpoint ${endpoint.name} needs the scopes "${endpoint.scopes.join(' ')}"`,
      },
    };
  };
  return (req) => {
    const authentication = authenticate(req);
    return authentication instanceof Promise ? authentication.then(check) : check(authentication);
  };
}

/**
 * The gateway's checks of a call (scopes, its rate limits), then the endpoint's own rate limits, which
 * count the tool by the name the endpoint shows it under. The endpoint's limits alone make a call wait on
 * a promise: the default endpoint's calls are untouched.
 */
export function endpointAccess(gateway: CallerAccess, endpointLimit: RateLimitAdmission | undefined): CallerAccess {
  if (endpointLimit === undefined) return gateway;
  const { admit, limit } = gateway;
  const endpointAdmit: CallAdmission = async (tool, context) => {
    const refusal = await admit?.(tool, context);
    return refusal ?? endpointLimit(tool.publicTool.name, context);
  };
  const endpointSearchLimit: RateLimitAdmission = async (tool, context) => (await limit?.(tool, context)) ?? endpointLimit(tool, context);
  return { ...gateway, admit: endpointAdmit, limit: endpointSearchLimit };
}
