import type { ToolDefinition } from '@toolmesh/registry';
import type { Logger, RequestContext } from '@toolmesh/transport-http/server';

import type { ProtectedResource } from '../auth/protected-resource';
import type { ToolAuthorization } from '../auth/tool-authorization';
import type { CallRateLimits, RateLimitKind, RateLimitRefusal } from '../limits/call-rate-limits';

/** Why a call was refused before its tool service was called. */
export type AdmissionRefusal =
  | { readonly kind: 'insufficient_scope'; readonly scopes: readonly string[]; readonly challenge: string }
  | ({ readonly kind: 'rate_limited' } & RateLimitRefusal);

/**
 * Whether a `tools/call` may go to its tool service: the caller's scopes first (synchronously), then the
 * rate limits (which may wait on Redis, bounded by its command timeout). Undefined: it may.
 */
export type CallAdmission = (
  tool: ToolDefinition,
  context: RequestContext,
) => AdmissionRefusal | undefined | Promise<AdmissionRefusal | undefined>;

export interface CallAdmissionParts {
  readonly authorization?: { readonly tools: ToolAuthorization; readonly resource: ProtectedResource };
  readonly rateLimits?: CallRateLimits;
  readonly logger: Logger;
  readonly onForbidden?: () => void;
  readonly onRateLimited?: (limit: RateLimitKind) => void;
}

/** The admission of the configured checks; none when neither authorization nor rate limits are on. */
export function callAdmission({
  authorization,
  rateLimits,
  logger,
  onForbidden,
  onRateLimited,
}: CallAdmissionParts): CallAdmission | undefined {
  if (authorization === undefined && rateLimits === undefined) return undefined;
  const limited =
    rateLimits &&
    ((tool: ToolDefinition, context: RequestContext) =>
      rateLimits.admit(tool.name, context).then((refusal): AdmissionRefusal | undefined => {
        if (refusal === undefined) return undefined;
        onRateLimited?.(refusal.limit);
        logger.warn(
          'tool_call_rate_limited',
          { tool: tool.name, limit: refusal.limit, retryAfterSeconds: refusal.retryAfterSeconds },
          context,
        );
        return { kind: 'rate_limited', ...refusal };
      }));
  return (tool, context) => {
    if (authorization !== undefined) {
      const missing = authorization.tools.missingScopes(context.caller, tool);
      if (missing.length > 0) {
        onForbidden?.();
        logger.info('tool_call_forbidden', { tool: tool.name, missingScopes: missing.length }, context);
        const scopes = authorization.tools.requiredScopes(tool);
        return { kind: 'insufficient_scope', scopes, challenge: authorization.resource.insufficientScope(scopes) };
      }
    }
    return limited?.(tool, context);
  };
}
