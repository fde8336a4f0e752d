/** JSON Schema of the gateway's configuration after defaults and environment are applied. */
const port = { type: 'integer', minimum: 0, maximum: 65535 };
const positiveInt = { type: 'integer', minimum: 1 };
const stringList = { type: 'array', items: { type: 'string', minLength: 1 } };

export const configSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['server', 'mcp', 'logging'],
  properties: {
    server: {
      type: 'object',
      additionalProperties: false,
      required: ['host', 'port', 'managementPort', 'headersTimeoutMillis', 'requestTimeoutMillis', 'keepAliveTimeoutMillis', 'maxConnections', 'metricsEnabled'],
      properties: {
        host: { type: 'string', minLength: 1 },
        port,
        managementPort: port,
        headersTimeoutMillis: positiveInt,
        requestTimeoutMillis: positiveInt,
        keepAliveTimeoutMillis: positiveInt,
        maxConnections: { type: 'integer', minimum: 0 },
        metricsEnabled: { type: 'boolean' },
      },
    },
    mcp: {
      type: 'object',
      additionalProperties: false,
      required: ['endpointPath', 'serverInfo', 'protocol', 'maxBodyBytes', 'requestDeadlineMillis', 'maxToolTimeoutMillis', 'shutdownDrainMillis', 'forwardAuthorization', 'allowedHosts', 'allowedOrigins', 'payloadLoggingEnabled', 'bundles', 'portal', 'catalogue', 'routingHints', 'notifications', 'redis', 'toolClient'],
      properties: {
        endpointPath: { type: 'string', pattern: '^/[A-Za-z0-9._~/-]*$' },
        serverInfo: {
          type: 'object',
          additionalProperties: false,
          required: ['name', 'title', 'version'],
          properties: { name: { type: 'string', minLength: 1 }, title: { type: 'string' }, version: { type: 'string', minLength: 1 } },
        },
        protocol: {
          type: 'object',
          additionalProperties: false,
          required: ['supportedVersions', 'preferredVersion'],
          properties: {
            supportedVersions: { ...stringList, minItems: 1 },
            preferredVersion: { type: 'string' },
            assumeVersionWhenMissing: { type: 'string' },
          },
        },
        maxBodyBytes: positiveInt,
        requestDeadlineMillis: positiveInt,
        maxToolTimeoutMillis: positiveInt,
        defaultMaxResultChars: positiveInt,
        shutdownDrainMillis: { type: 'integer', minimum: 0 },
        forwardAuthorization: { type: 'boolean' },
        allowedHosts: stringList,
        allowedOrigins: stringList,
        payloadLoggingEnabled: { type: 'boolean' },
        bundles: {
          type: 'array',
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['name', 'serviceDomain'],
            properties: {
              name: { type: 'string', pattern: '^[a-z0-9]([a-z0-9-]*[a-z0-9])?$' },
              serviceDomain: { type: 'string', pattern: '^https?://' },
              manifestPath: { type: 'string', pattern: '^/' },
              manifestFile: { type: 'string', minLength: 1 },
              fallbackManifestFile: { type: 'string', minLength: 1 },
              namePrefix: { type: 'string', minLength: 1 },
            },
            oneOf: [{ required: ['manifestPath'] }, { required: ['manifestFile'] }],
          },
        },
        portal: {
          type: 'object',
          additionalProperties: false,
          required: ['refreshTtlMillis'],
          properties: {
            registryUrl: { type: 'string', pattern: '^(https?://|file:)' },
            refreshTtlMillis: { type: 'integer', minimum: 0 },
            namePrefix: { type: 'string', minLength: 1 },
          },
        },
        catalogue: {
          type: 'object',
          additionalProperties: false,
          required: ['refreshTtlMillis', 'maxTools', 'maxSerializedBytes', 'toolsListPageSize', 'forcedRefreshCooldownMillis', 'requestedRefreshIntervalMillis', 'manifestTimeoutMillis', 'maxManifestBytes'],
          properties: {
            refreshTtlMillis: { type: 'integer', minimum: 0 },
            maxTools: positiveInt,
            maxSerializedBytes: positiveInt,
            toolsListPageSize: { type: 'integer', minimum: 1 },
            forcedRefreshCooldownMillis: { type: 'integer', minimum: 0 },
            requestedRefreshIntervalMillis: { type: 'integer', minimum: 0 },
            manifestTimeoutMillis: positiveInt,
            maxManifestBytes: positiveInt,
          },
        },
        routingHints: {
          type: 'object',
          additionalProperties: false,
          required: ['refreshTtlMillis'],
          properties: { refreshTtlMillis: { type: 'integer', minimum: 0 } },
        },
        notifications: {
          type: 'object',
          additionalProperties: false,
          required: ['maxOpenStreams', 'maxStreamsPerClient', 'maxStreamLifetimeMillis', 'keepAliveMillis'],
          properties: {
            maxOpenStreams: { type: 'integer', minimum: 0 },
            maxStreamsPerClient: { type: 'integer', minimum: 0 },
            maxStreamLifetimeMillis: { type: 'integer', minimum: 1_000 },
            keepAliveMillis: { type: 'integer', minimum: 100 },
          },
        },
        redis: {
          type: 'object',
          additionalProperties: false,
          required: ['keyPrefix', 'portalRegistryKey', 'commandTimeoutMillis'],
          properties: {
            url: { type: 'string', pattern: '^rediss?://' },
            keyPrefix: { type: 'string', minLength: 1 },
            portalRegistryKey: { type: 'string', minLength: 1 },
            commandTimeoutMillis: positiveInt,
          },
        },
        toolClient: {
          type: 'object',
          additionalProperties: false,
          required: ['connectionsPerOrigin', 'maxConcurrentCallsPerTool', 'reservedConnectionsPerOrigin', 'maxReservedCallsPerTool'],
          properties: { connectionsPerOrigin: positiveInt, maxConcurrentCallsPerTool: positiveInt, reservedConnectionsPerOrigin: positiveInt, maxReservedCallsPerTool: positiveInt },
        },
      },
    },
    logging: {
      type: 'object',
      additionalProperties: false,
      required: ['level', 'format'],
      properties: {
        level: { enum: ['error', 'warn', 'info', 'debug'] },
        format: { enum: ['kv', 'json'] },
      },
    },
  },
} as const;
