import { isIP, isIPv6 } from 'node:net';

import { DEFAULT_MAX_SCHEMA_NODES, DEFAULT_YAML_LIMITS } from '@toolmesh/registry';

import { version } from '../../../../package.json';
import { GatewayError, GatewayErrorCode } from '../errors/gateway-errors';
import type { AuthSettings, GatewayConfig } from './gateway-config';

/** Also the lint command's, which reads a document as the catalogue would. */
export const DEFAULT_MANIFEST_TIMEOUT_MILLIS = 5_000;
const DEFAULT_MAX_MANIFEST_BYTES = 8 * 1_048_576;
/**
 * Room for the largest published descriptions (GitHub's api.github.com, 13 MB; its GHEC one, 14 MB) twice
 * over: what reading one costs is bounded by the YAML and schema limits, not by refusing it (docs/gateway.md).
 */
export const DEFAULT_MAX_OPENAPI_DOCUMENT_BYTES = 32 * 1_048_576;

/**
 * Where the local profile's bundle finds the sample tool service: where `nx serve gateway` started it,
 * from the variables the sample reads (TOOL_SERVICE_HOST, TOOL_SERVICE_PORT; 127.0.0.1:8081 unset), so
 * moving its port moves the gateway's calls with it. A wildcard bind address is called on loopback.
 */
function sampleToolServiceUrl(env: NodeJS.ProcessEnv): string {
  const port = env.TOOL_SERVICE_PORT || '8081';
  if (!/^[0-9]+$/.test(port) || Number(port) < 1 || Number(port) > 65535) {
    const why = port === '0' ? 'lets the sample service pick any free port, which the gateway cannot follow' : 'is not a TCP port';
    throw new GatewayError(
      GatewayErrorCode.ConfigInvalid,
      `TOOL_SERVICE_PORT=${port} ${why}; give a port from 1 to 65535, or configure mcp.bundles`,
    );
  }
  const bound = env.TOOL_SERVICE_HOST || '127.0.0.1';
  if (isIP(bound) === 0 && !/^[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?$/.test(bound)) {
    throw new GatewayError(GatewayErrorCode.ConfigInvalid, `TOOL_SERVICE_HOST must be an IP address or a host name, got "${bound}"`);
  }
  const host = bound === '0.0.0.0' ? '127.0.0.1' : bound === '::' ? '[::1]' : isIPv6(bound) ? `[${bound}]` : bound;
  return `http://${host}:${port}`;
}

/**
 * Defaults: the local profile, which works on a fresh clone with no configuration: loopback only, and the
 * sample tool service as the one bundle.
 */
export function defaultConfig(env: NodeJS.ProcessEnv = {}): GatewayConfig {
  return {
    server: {
      host: '127.0.0.1',
      port: 8080,
      managementPort: 9090,
      // Apart from host: the management port answers to nobody but the pod's own probes unless opened on
      // purpose, since it lets anyone who reaches it refresh bundles and read their state (issue 43).
      managementHost: '127.0.0.1',
      // Slow clients are bounded (SPEC G26): headers within 10 s, a whole request within 30 s.
      headersTimeoutMillis: 10_000,
      requestTimeoutMillis: 30_000,
      // Above the 60 s idle timeout of common load balancers, so the balancer closes an idle connection first.
      keepAliveTimeoutMillis: 65_000,
      maxConnections: 0,
      metricsEnabled: true,
    },
    mcp: {
      endpointPath: '/mcp',
      serverInfo: { name: 'toolmesh-gateway', title: 'Toolmesh MCP gateway', version },
      protocol: {
        supportedVersions: ['2026-07-28', '2025-03-26', '2025-06-18', '2025-11-25'],
        preferredVersion: '2025-11-25',
      },
      maxBodyBytes: 1_048_576,
      // A batch costs what its members do, not what its body does (issue 43; docs/configuration.md says why these).
      maxBatchMembers: 32,
      maxBatchResponseBytes: 1_048_576,
      // A held call keeps its server's request open for a minute and counts against no call slot (issue 43).
      heldCalls: { max: 256, maxPerBundle: 64 },
      // Long calls as tasks (issue 47; docs/configuration.md says why these).
      tasks: {
        enabled: false,
        defaultTtlMillis: 3_600_000,
        maxTtlMillis: 86_400_000,
        poll: { defaultMillis: 2_000, minMillis: 250, maxMillis: 30_000 },
        statusTimeoutMillis: 5_000,
        maxFailedPolls: 5,
        listPageSize: 100,
        maxWorkingPerCaller: 20,
      },
      // An MCP server's requests to the caller during one call, waiting for answers at once (issue 43).
      maxRelayedRequestsPerCall: 16,
      // About 100 bytes each: 10,000 sessions' levels are a megabyte (issue 44).
      maxSessionLogLevels: 10_000,
      requestDeadlineMillis: 270_000,
      maxToolTimeoutMillis: 30_000,
      toolSearch: false,
      shutdownDrainMillis: 40_000,
      forwardAuthorization: false,
      // Time enough for a person to answer a form; a sealed state is refused after it (issue 44).
      requestStateTtlSeconds: 600,
      allowedHosts: ['localhost', '127.0.0.1', '[::1]'],
      allowedOrigins: ['http://localhost:*', 'http://127.0.0.1:*', 'http://[::1]:*'],
      payloadLoggingEnabled: false,
      bundles: [
        {
          name: 'sample',
          serviceDomain: sampleToolServiceUrl(env),
          manifestPath: '/tool-manifest',
          fallbackManifestFile: 'config/local-core-tools-manifest-sample-v1.json',
        },
      ],
      portal: { refreshTtlMillis: 60_000 },
      catalogue: {
        refreshTtlMillis: 60_000,
        maxTools: 2_000,
        maxSerializedBytes: 8 * 1_048_576,
        toolsListPageSize: 1_000,
        forcedRefreshCooldownMillis: 5_000,
        requestedRefreshIntervalMillis: 1_000,
        manifestTimeoutMillis: DEFAULT_MANIFEST_TIMEOUT_MILLIS,
        maxManifestBytes: DEFAULT_MAX_MANIFEST_BYTES,
        maxOpenApiDocumentBytes: DEFAULT_MAX_OPENAPI_DOCUMENT_BYTES,
        maxYamlDepth: DEFAULT_YAML_LIMITS.maxDepth,
        maxYamlNodes: DEFAULT_YAML_LIMITS.maxNodes,
        maxSchemaNodes: DEFAULT_MAX_SCHEMA_NODES,
      },
      routingHints: { refreshTtlMillis: 300_000 },
      // SEP-2640 §Limits: what a host must accept, so what a server should not exceed.
      skills: { folders: [], bundles: [], maxFilesPerSkill: 512, maxBytesPerSkill: 16 * 1_048_576 },
      notifications: { maxOpenStreams: 1_024, maxStreamsPerClient: 64, maxStreamLifetimeMillis: 3_600_000, keepAliveMillis: 15_000 },
      redis: {
        keyPrefix: 'toolmesh',
        portalRegistryKey: 'toolmesh:portal-registry:v1',
        commandTimeoutMillis: 1_000,
        // A rate-limit command answers in a millisecond or two; past 100 ms Redis is as good as gone for a call.
        rateLimitTimeoutMillis: 100,
        rateLimitRetryMillis: 5_000,
        rateLimitLeaseMax: 100,
      },
      toolClient: {
        connectionsPerOrigin: 128,
        maxConcurrentCallsPerTool: 64,
        reservedConnectionsPerOrigin: 32,
        maxReservedCallsPerTool: 8,
      },
    },
    logging: { level: 'info', format: 'kv' },
  };
}

/**
 * What an `auth:` section given without them takes (the section itself is off by default): the asymmetric
 * algorithms authorization servers sign with, half a minute of clock skew, access tokens typed `at+jwt`
 * (RFC 9068) or plain `JWT` (what Entra ID and Keycloak issue) issued at most a day ago (access tokens live
 * minutes to hours), a JWKS refetched for an unknown key at most every 30 s.
 */
export const AUTH_DEFAULTS: Omit<AuthSettings, 'audience' | 'authorizationServers'> = {
  algorithms: ['RS256', 'PS256', 'ES256', 'EdDSA'],
  clockSkewSeconds: 30,
  tokenTypes: ['at+jwt', 'jwt'],
  maxTokenAgeSeconds: 86_400,
  jwksRefetchCooldownMillis: 30_000,
  scopesSupported: [],
  toolPolicies: [],
  identityHeaders: {},
  maxCachedTokens: 10_000,
};
