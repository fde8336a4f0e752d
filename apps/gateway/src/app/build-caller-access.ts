import { type CatalogueGeneration, type CatalogueStatus, connectCounterStore } from '@toolmesh/registry';
import type { Authenticator, Logger } from '@toolmesh/transport-http/server';

import { bearerAuthenticator } from '../auth/bearer-authenticator';
import { JwtVerifier, type TokenVerifier } from '../auth/jwt-verifier';
import { ProtectedResource } from '../auth/protected-resource';
import { INTROSPECTION_LIMITS, sharedIntrospection } from '../auth/shared-introspection';
import { looksLikeJwt, TokenIntrospection } from '../auth/token-introspection';
import { ToolAuthorization } from '../auth/tool-authorization';
import { VerifiedTokens } from '../auth/verified-tokens';
import type { AuthSettings, GatewayConfig } from '../config/gateway-config';
import { callAdmission, rateLimitAdmission } from '../execution/call-admission';
import { CallRateLimits } from '../limits/call-rate-limits';
import type { GatewayMetrics } from '../management/gateway-metrics';
import type { CallerAccess } from '../mcp/build-eras';

/** Who may call what (SPEC G27), as the HTTP front, the eras and the execution service each need it. */
export interface CallerAccessParts {
  /** For the HTTP front: the bearer token check and the RFC 9728 metadata document. */
  readonly front: { readonly authenticate?: Authenticator; readonly documents?: ReadonlyMap<string, object> };
  readonly eras: CallerAccess;
  /** Header name and claim, for the execution service. */
  readonly identityHeaders?: ReadonlyArray<readonly [string, string]>;
  /** `GET /actuator/toolBundles`: the catalogue's status, with the tools' required scopes when `auth` is on. */
  describeBundles(status: CatalogueStatus, generation: CatalogueGeneration | undefined): CatalogueStatus;
  close(): Promise<void>;
}

/** Authentication, per-tool authorization and rate limits as configured; each part absent when its section is. */
export function buildCallerAccess(config: GatewayConfig, logger: Logger, metrics: GatewayMetrics | undefined): CallerAccessParts {
  const { auth, rateLimits, mcp } = config;
  const redis =
    rateLimits && mcp.redis.url !== undefined
      ? connectCounterStore({
          url: mcp.redis.url,
          connectTimeoutMillis: mcp.redis.commandTimeoutMillis,
          commandTimeoutMillis: mcp.redis.rateLimitTimeoutMillis,
        })
      : undefined;
  const limits =
    rateLimits &&
    new CallRateLimits(rateLimits, {
      keyPrefix: mcp.redis.keyPrefix,
      ...(redis && {
        redis: {
          connection: redis,
          retryAfterMillis: mcp.redis.rateLimitRetryMillis,
          maxLease: mcp.redis.rateLimitLeaseMax,
          // Once per outage: the limits are local until Redis is back.
          onAvailability: (available: boolean) =>
            logger[available ? 'info' : 'warn'](`rate_limits_redis_${available ? 'available' : 'unavailable'}`, {}),
        },
      }),
    });
  const close = async () => redis?.close();
  const limit = rateLimitAdmission({ rateLimits: limits, logger, onRateLimited: (kind) => metrics?.rateLimited(kind) });
  if (auth === undefined) {
    const admit = callAdmission({ limit, logger });
    return { front: {}, eras: { ...(admit && { admit }), ...(limit && { limit }) }, describeBundles: (status) => status, close };
  }
  const resource = new ProtectedResource(auth, mcp.endpointPath);
  const tools = new ToolAuthorization(auth.toolPolicies, mcp.catalogue.toolsListPageSize);
  const authenticate = bearerAuthenticator({
    verify: tokenVerifier(auth),
    tokens: new VerifiedTokens(auth.maxCachedTokens),
    resource,
    onRefused: (reason) => metrics?.authRefused(reason),
  });
  const admit = callAdmission({
    authorization: { tools, resource },
    limit,
    logger,
    onForbidden: () => metrics?.authRefused('insufficient_scope'),
  });
  return {
    front: { authenticate, documents: new Map([[resource.metadataPath, resource.metadata]]) },
    eras: { view: (generation, caller) => tools.visibleCatalogue(generation, caller), ...(admit && { admit }), ...(limit && { limit }) },
    identityHeaders: Object.entries(auth.identityHeaders),
    describeBundles: (status, generation) => tools.describeBundles(status, generation),
    close,
  };
}

/**
 * JWTs checked here; with `auth.introspection`, any other token asked about at the authorization server,
 * one introspection per token at a time and refusals remembered (shared-introspection.ts).
 */
function tokenVerifier(auth: AuthSettings): TokenVerifier {
  const jwt = new JwtVerifier(auth);
  if (auth.introspection === undefined) return (token) => jwt.verify(token);
  const introspection = new TokenIntrospection(auth, auth.introspection);
  const introspect = sharedIntrospection((token) => introspection.verify(token), {
    ...INTROSPECTION_LIMITS,
    maxRefusals: auth.maxCachedTokens,
  });
  return (token) => (looksLikeJwt(token) ? jwt.verify(token) : introspect(token));
}
