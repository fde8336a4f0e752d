import { version } from '../../../../package.json';
import type { GatewayConfig } from './gateway-config';

/** The port the sample tool service listens on in the local profile (`nx serve tool-service-sample`). */
const SAMPLE_TOOL_SERVICE_URL = 'http://127.0.0.1:8081';

/**
 * Defaults: the local profile, which works on a fresh clone with no configuration: loopback only, and the
 * sample tool service as the one bundle.
 */
export function defaultConfig(): GatewayConfig {
  return {
    server: {
      host: '127.0.0.1',
      port: 8080,
      managementPort: 9090,
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
      requestDeadlineMillis: 270_000,
      maxToolTimeoutMillis: 30_000,
      shutdownDrainMillis: 40_000,
      forwardAuthorization: false,
      allowedHosts: ['localhost', '127.0.0.1', '[::1]'],
      allowedOrigins: ['http://localhost:*', 'http://127.0.0.1:*', 'http://[::1]:*'],
      payloadLoggingEnabled: false,
      bundles: [
        {
          name: 'sample',
          serviceDomain: SAMPLE_TOOL_SERVICE_URL,
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
        manifestTimeoutMillis: 5_000,
        maxManifestBytes: 8 * 1_048_576,
      },
      routingHints: { refreshTtlMillis: 300_000 },
      notifications: { maxOpenStreams: 1_024, keepAliveMillis: 15_000 },
      redis: { keyPrefix: 'toolmesh', portalRegistryKey: 'toolmesh:portal-registry:v1', commandTimeoutMillis: 1_000 },
      toolClient: { connectionsPerOrigin: 128, maxConcurrentCallsPerTool: 64 },
    },
    logging: { level: 'info', format: 'kv' },
  };
}
