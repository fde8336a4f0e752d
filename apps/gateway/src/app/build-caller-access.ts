import { type CatalogueGeneration, type CatalogueStatus, connectCounterStore } from '@toolmesh/registry';
import type { Authenticator, Logger } from '@toolmesh/transport-http/server';

import { bearerAuthenticator } from '../auth/bearer-authenticator';
import { JwtVerifier, type TokenVerifier } from '../auth/jwt-verifier';
import { ProtectedResource } from '../auth/protected-resource';
import { INTROSPECTION_LIMITS, sharedIntrospection } from '../auth/shared-introspection';
import { looksLikeJwt, TokenIntrospection } from '../auth/token-introspection';
import { ToolAuthorization } from '../auth/tool-authorization';
import { VerifiedTokens } from '../auth/verified-tokens';
import type { EndpointSettings } from '../config/endpoint-settings';
import type { AuthSettings, GatewayConfig, RateLimitsSettings } from '../config/gateway-config';
import type { CuratedEndpointParts } from '../endpoints/curated-endpoints';
import { callAdmission, type RateLimitAdmission, rateLimitAdmission } from '../execution/call-admission';
import { CallRateLimits, type RateLimitKind } from '../limits/call-rate-limits';
import type { GatewayMetrics } from '../management/gateway-metrics';
import type { CallerAccess } from '../mcp/build-eras';

/** Who may call what (SPEC G27), as the HTTP front, the eras and the execution service each need it. */
export interface CallerAccessParts {
  /** For the HTTP front: the bearer token check and the RFC 9728 metadata document. */
  readonly front: { readonly authenticate?: Authenticator; readonly documents?: ReadonlyMap<string, object> };
  readonly eras: CallerAccess;
  /** With `auth`: the authenticator and resource a curated endpoint checks its own scopes after (issue 46). */
  readonly authentication?: CuratedEndpointParts['authentication'];
  /** A curated endpoint's own rate limits, in the same store as the gateway's, counted under its name. */
  rateLimitsOf(endpoint: EndpointSettings): RateLimitAdmission | undefined;
  /** Header name and claim, for the execution service. */
  readonly identityHeaders?: ReadonlyArray<readonly [string, string]>;
  /** `GET /actuator/toolBundles`: the catalogue's status, with the tools' required scopes when `auth` is on. */
  describeBundles(status: CatalogueStatus, generation: CatalogueGeneration | undefined): CatalogueStatus;
  close(): Promise<void>;
}

/** Authentication, per-tool authorization and rate limits as configured; each part absent when its section is. */
export function buildCallerAccess(config: GatewayConfig, logger: Logger, metrics: GatewayMetrics | undefined): CallerAccessParts {
  const { auth, rateLimits, mcp } = config;
  const counted = rateLimits !== undefined || (mcp.endpoints ?? []).some((endpoint) => endpoint.rateLimits !== undefined);
  const redis =
    counted && mcp.redis.url !== undefined
      ? connectCounterStore({
          url: mcp.redis.url,
          connectTimeoutMillis: mcp.redis.commandTimeoutMillis,
          commandTimeoutMillis: mcp.redis.rateLimitTimeoutMillis,
        })
      : undefined;
  const limitsOf = (settings: RateLimitsSettings, keyPrefix: string) =>
    new CallRateLimits(settings, {
      keyPrefix,
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
  const onRateLimited = (kind: RateLimitKind) => metrics?.rateLimited(kind);
  const limit = rateLimitAdmission({ rateLimits: rateLimits && limitsOf(rateLimits, mcp.redis.keyPrefix), logger, onRateLimited });
  const rateLimitsOf = ({ name, rateLimits: own }: EndpointSettings) =>
    own &&
    rateLimitAdmission({ rateLimits: limitsOf({ perTool: [], ...own }, `${mcp.redis.keyPrefix}:endpoint:${name}`), logger, onRateLimited });
  if (auth === undefined) {
    const admit = callAdmission({ limit, logger });
    return {
      front: {},
      eras: { ...(admit && { admit }), ...(limit && { limit }) },
      rateLimitsOf,
      describeBundles: (status) => status,
      close,
    };
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
    authentication: { authenticate, resource, onForbidden: () => metrics?.authRefused('insufficient_scope') },
    rateLimitsOf,
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
