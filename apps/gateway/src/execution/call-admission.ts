import type { ToolDefinition } from '@toolmesh/registry';
import type { Logger, RequestContext } from '@toolmesh/transport-http/server';

import { AuditDecisions } from '../audit/audit-event';
import { auditOf } from '../audit/audit-record';
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

/**
 * The rate limits alone, for a call of a tool by name: every `tools/call` (through `CallAdmission`), and
 * the gateway's own `search_tools`, which needs no scope but costs a search of the whole catalogue.
 */
export type RateLimitAdmission = (tool: string, context: RequestContext) => Promise<AdmissionRefusal | undefined>;

export interface RateLimitAdmissionParts {
  readonly rateLimits?: CallRateLimits;
  readonly logger: Logger;
  readonly onRateLimited?: (limit: RateLimitKind) => void;
}

/** The configured rate limits as an admission, logged and counted when they refuse; none when `rateLimits` is off. */
export function rateLimitAdmission({ rateLimits, logger, onRateLimited }: RateLimitAdmissionParts): RateLimitAdmission | undefined {
  if (rateLimits === undefined) return undefined;
  return (tool, context) =>
    rateLimits.admit(tool, context).then((refusal): AdmissionRefusal | undefined => {
      auditOf(context)?.decide(
        refusal === undefined ? AuditDecisions.withinRateLimits : { stage: 'rateLimit', outcome: 'deny', reason: refusal.limit },
      );
      if (refusal === undefined) return undefined;
      onRateLimited?.(refusal.limit);
      logger.warn('tool_call_rate_limited', { tool, limit: refusal.limit, retryAfterSeconds: refusal.retryAfterSeconds }, context);
      return { kind: 'rate_limited', ...refusal };
    });
}

export interface CallAdmissionParts {
  readonly authorization?: { readonly tools: ToolAuthorization; readonly resource: ProtectedResource };
  readonly limit?: RateLimitAdmission;
  readonly logger: Logger;
  readonly onForbidden?: () => void;
}

/** The admission of the configured checks; none when neither authorization nor rate limits are on. */
export function callAdmission({ authorization, limit, logger, onForbidden }: CallAdmissionParts): CallAdmission | undefined {
  if (authorization === undefined && limit === undefined) return undefined;
  return (tool, context) => {
    if (authorization !== undefined) {
      const missing = authorization.tools.missingScopes(context.caller, tool);
      auditOf(context)?.decide(missing.length > 0 ? AuditDecisions.insufficientScope : AuditDecisions.authorized);
      if (missing.length > 0) {
        onForbidden?.();
        logger.info('tool_call_forbidden', { tool: tool.name, missingScopes: missing.length }, context);
        const scopes = authorization.tools.requiredScopes(tool);
        const granted = context.caller?.scopes ?? new Set<string>();
        return { kind: 'insufficient_scope', scopes, challenge: authorization.resource.insufficientScope(scopes, granted) };
      }
    }
    return limit?.(tool.name, context);
  };
}
