import { auditSchema } from './audit-settings';
import { consentSchema, userAuthorizationSchema } from './consent-settings';

/** The shortest `mcp.requestStateKey` accepted: 32 characters, e.g. `openssl rand -base64 32` (44). */
const MIN_REQUEST_STATE_KEY_LENGTH = 32;

/** JSON Schema of the gateway's configuration after defaults and environment are applied. */
const port = { type: 'integer', minimum: 0, maximum: 65535 };
const positiveInt = { type: 'integer', minimum: 1 };
const stringList = { type: 'array', items: { type: 'string', minLength: 1 } };
/** An OAuth scope token (RFC 6749 §3.3): what a `WWW-Authenticate` scope parameter can carry unquoted. */
const scopeList = { type: 'array', items: { type: 'string', pattern: '^[\\x21\\x23-\\x5B\\x5D-\\x7E]{1,128}$' } };
const httpUrl = { type: 'string', pattern: '^https?://[^#]+$' };
/** Where a secret is: an environment variable or a mounted file (OpenAPI credentials, an MCP server's headers). */
/** An HTTP header name (RFC 9110 token), for headers the configuration sends. */
export const headerName = "^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,128}$";
export const credentialSource = {
  type: 'object',
  additionalProperties: false,
  properties: { env: { type: 'string', minLength: 1 }, file: { type: 'string', minLength: 1 } },
  oneOf: [{ required: ['env'] }, { required: ['file'] }],
};
/** The gateway as a confidential client of a token endpoint (an MCP server's `oauth`, a bundle's `tokenExchange`), with `more` fields. */
function tokenClient(more: Record<string, object>): object {
  return {
    type: 'object',
    additionalProperties: false,
    required: ['tokenUrl', 'clientId', 'clientSecret'],
    properties: {
      tokenUrl: httpUrl,
      clientId: { type: 'string', minLength: 1 },
      clientSecret: credentialSource,
      scope: { type: 'string', minLength: 1 },
      resource: { type: 'string', minLength: 1 },
      ...more,
    },
  };
}
/** A tool-name pattern: the characters of tool names, and `*`. */
const toolPattern = { type: 'string', pattern: '^[A-Za-z0-9_.*-]{1,128}$' };
const rateLimit = {
  type: 'object',
  additionalProperties: false,
  required: ['points', 'durationSeconds'],
  properties: { points: positiveInt, durationSeconds: positiveInt },
};
/** Limits on tool calls: the gateway's `rateLimits`, and a curated endpoint's own. */
const rateLimitsSection = {
  type: 'object',
  additionalProperties: false,
  required: ['perTool'],
  properties: {
    perCaller: rateLimit,
    perTool: {
      type: 'array',
      items: { ...rateLimit, required: ['tools', ...rateLimit.required], properties: { ...rateLimit.properties, tools: toolPattern } },
    },
  },
};
/** A tool name as the manifest format allows it. */
const toolName = { type: 'string', pattern: '^[A-Za-z0-9_.-]{1,128}$' };
/** One of `mcp.endpoints` (endpoint-settings.ts); what the schema cannot say is checked by check-endpoints.ts. */
const curatedEndpoint = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'serve'],
  properties: {
    name: { type: 'string', pattern: '^[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?$' },
    path: { type: 'string', pattern: '^/[A-Za-z0-9._~/-]*$' },
    serve: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        additionalProperties: false,
        minProperties: 1,
        maxProperties: 1,
        properties: { bundle: { type: 'string', minLength: 1 }, tools: toolPattern, tag: { type: 'string', minLength: 1, maxLength: 128 } },
      },
    },
    overrides: {
      type: 'object',
      propertyNames: toolName,
      additionalProperties: {
        type: 'object',
        additionalProperties: false,
        minProperties: 1,
        properties: {
          name: toolName,
          description: { type: 'string', maxLength: 8192 },
          annotations: {
            type: 'object',
            additionalProperties: false,
            properties: {
              title: { type: 'string' },
              readOnlyHint: { type: 'boolean' },
              destructiveHint: { type: 'boolean' },
              idempotentHint: { type: 'boolean' },
              openWorldHint: { type: 'boolean' },
            },
          },
        },
      },
    },
    scopes: { ...scopeList, minItems: 1 },
    rateLimits: { ...rateLimitsSection, required: [] },
    toolSearch: { type: 'boolean' },
  },
};
/** Asymmetric signature algorithms only: never `none`, never an HMAC one (whose "key" could be a public key). */
const ACCEPTED_TOKEN_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];

export const configSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['server', 'mcp', 'logging'],
  properties: {
    server: {
      type: 'object',
      additionalProperties: false,
      required: [
        'host',
        'port',
        'managementPort',
        'managementHost',
        'headersTimeoutMillis',
        'requestTimeoutMillis',
        'keepAliveTimeoutMillis',
        'maxConnections',
        'metricsEnabled',
      ],
      properties: {
        host: { type: 'string', minLength: 1 },
        port,
        managementPort: port,
        managementHost: { type: 'string', minLength: 1 },
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
      required: [
        'endpointPath',
        'serverInfo',
        'protocol',
        'maxBodyBytes',
        'maxBatchMembers',
        'maxBatchResponseBytes',
        'heldCalls',
        'tasks',
        'maxRelayedRequestsPerCall',
        'maxSessionLogLevels',
        'requestDeadlineMillis',
        'maxToolTimeoutMillis',
        'toolSearch',
        'shutdownDrainMillis',
        'forwardAuthorization',
        'requestStateTtlSeconds',
        'allowedHosts',
        'allowedOrigins',
        'payloadLoggingEnabled',
        'bundles',
        'portal',
        'catalogue',
        'routingHints',
        'skills',
        'notifications',
        'redis',
        'toolClient',
      ],
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
        maxBatchMembers: positiveInt,
        maxBatchResponseBytes: positiveInt,
        heldCalls: {
          type: 'object',
          additionalProperties: false,
          required: ['max', 'maxPerBundle'],
          properties: { max: positiveInt, maxPerBundle: positiveInt },
        },
        tasks: {
          type: 'object',
          additionalProperties: false,
          required: [
            'enabled',
            'defaultTtlMillis',
            'maxTtlMillis',
            'poll',
            'statusTimeoutMillis',
            'maxFailedPolls',
            'listPageSize',
            'maxWorkingPerCaller',
          ],
          properties: {
            enabled: { type: 'boolean' },
            defaultTtlMillis: positiveInt,
            maxTtlMillis: positiveInt,
            poll: {
              type: 'object',
              additionalProperties: false,
              required: ['defaultMillis', 'minMillis', 'maxMillis'],
              properties: { defaultMillis: positiveInt, minMillis: positiveInt, maxMillis: positiveInt },
            },
            statusTimeoutMillis: positiveInt,
            maxFailedPolls: positiveInt,
            listPageSize: positiveInt,
            maxWorkingPerCaller: positiveInt,
          },
        },
        maxRelayedRequestsPerCall: positiveInt,
        maxSessionLogLevels: positiveInt,
        requestDeadlineMillis: positiveInt,
        maxToolTimeoutMillis: positiveInt,
        defaultMaxResultChars: positiveInt,
        toolSearch: { type: 'boolean' },
        shutdownDrainMillis: { type: 'integer', minimum: 0 },
        forwardAuthorization: { type: 'boolean' },
        requestStateKey: { type: 'string', minLength: MIN_REQUEST_STATE_KEY_LENGTH },
        requestStateTtlSeconds: positiveInt,
        allowedHosts: stringList,
        allowedOrigins: stringList,
        payloadLoggingEnabled: { type: 'boolean' },
        bundles: {
          type: 'array',
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['name'],
            properties: {
              name: { type: 'string', pattern: '^[a-z0-9]([a-z0-9-]*[a-z0-9])?$' },
              serviceDomain: { type: 'string', pattern: '^https?://' },
              manifestPath: { type: 'string', pattern: '^/' },
              manifestFile: { type: 'string', minLength: 1 },
              fallbackManifestFile: { type: 'string', minLength: 1 },
              namePrefix: { type: 'string', minLength: 1 },
              openapi: {
                type: 'object',
                additionalProperties: false,
                properties: {
                  documentUrl: { type: 'string', pattern: '^https?://' },
                  documentFile: { type: 'string', minLength: 1 },
                  operations: { oneOf: [stringList, { type: 'string' }] },
                  tags: stringList,
                  timeoutMillis: positiveInt,
                  credentials: { type: 'object', additionalProperties: credentialSource },
                  headers: { type: 'object', propertyNames: { pattern: headerName }, additionalProperties: credentialSource },
                  names: { type: 'object', additionalProperties: { type: 'string', minLength: 1 } },
                  outputSchemas: { enum: ['enforce', 'none'] },
                  maxDocumentBytes: positiveInt,
                },
                oneOf: [{ required: ['documentUrl'] }, { required: ['documentFile'] }],
              },
              mcpServer: {
                type: 'object',
                additionalProperties: false,
                required: ['url'],
                properties: {
                  url: httpUrl,
                  era: { enum: ['auto', '2025', '2026-07-28'] },
                  headers: {
                    type: 'object',
                    propertyNames: { pattern: headerName },
                    additionalProperties: credentialSource,
                  },
                  oauth: tokenClient({}),
                },
              },
              tokenExchange: {
                ...tokenClient({ audience: { type: 'string', minLength: 1 } }),
                anyOf: [{ required: ['resource'] }, { required: ['audience'] }],
              },
              definitionChanges: { enum: ['accept', 'warn', 'hold'] },
              userAuthorization: userAuthorizationSchema,
            },
            oneOf: [{ required: ['manifestPath'] }, { required: ['manifestFile'] }, { required: ['openapi'] }, { required: ['mcpServer'] }],
          },
        },
        definitionPins: {
          type: 'object',
          additionalProperties: false,
          properties: { pinFile: { type: 'string', minLength: 1 }, approvalToken: credentialSource },
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
          required: [
            'refreshTtlMillis',
            'maxTools',
            'maxSerializedBytes',
            'toolsListPageSize',
            'forcedRefreshCooldownMillis',
            'requestedRefreshIntervalMillis',
            'manifestTimeoutMillis',
            'maxManifestBytes',
            'maxOpenApiDocumentBytes',
            'maxYamlDepth',
            'maxYamlNodes',
            'maxSchemaNodes',
          ],
          properties: {
            refreshTtlMillis: { type: 'integer', minimum: 0 },
            maxTools: positiveInt,
            maxSerializedBytes: positiveInt,
            toolsListPageSize: { type: 'integer', minimum: 1 },
            forcedRefreshCooldownMillis: { type: 'integer', minimum: 0 },
            requestedRefreshIntervalMillis: { type: 'integer', minimum: 0 },
            manifestTimeoutMillis: positiveInt,
            maxManifestBytes: positiveInt,
            maxOpenApiDocumentBytes: positiveInt,
            maxYamlDepth: positiveInt,
            maxYamlNodes: positiveInt,
            maxSchemaNodes: positiveInt,
          },
        },
        routingHints: {
          type: 'object',
          additionalProperties: false,
          required: ['refreshTtlMillis'],
          properties: { refreshTtlMillis: { type: 'integer', minimum: 0 } },
        },
        skills: {
          type: 'object',
          additionalProperties: false,
          required: ['folders', 'bundles', 'maxFilesPerSkill', 'maxBytesPerSkill'],
          properties: {
            folders: {
              type: 'array',
              items: {
                type: 'object',
                additionalProperties: false,
                required: ['path'],
                properties: { path: { type: 'string', minLength: 1 }, requiredScopes: stringList },
              },
            },
            bundles: stringList,
            maxFilesPerSkill: positiveInt,
            maxBytesPerSkill: positiveInt,
          },
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
          required: [
            'keyPrefix',
            'portalRegistryKey',
            'commandTimeoutMillis',
            'rateLimitTimeoutMillis',
            'rateLimitRetryMillis',
            'rateLimitLeaseMax',
          ],
          properties: {
            url: { type: 'string', pattern: '^rediss?://' },
            keyPrefix: { type: 'string', minLength: 1 },
            portalRegistryKey: { type: 'string', minLength: 1 },
            commandTimeoutMillis: positiveInt,
            rateLimitTimeoutMillis: { type: 'integer', minimum: 1, maximum: 5_000 },
            rateLimitRetryMillis: { type: 'integer', minimum: 100, maximum: 600_000 },
            rateLimitLeaseMax: { type: 'integer', minimum: 1, maximum: 100_000 },
          },
        },
        endpoints: { type: 'array', items: curatedEndpoint },
        toolClient: {
          type: 'object',
          additionalProperties: false,
          required: ['connectionsPerOrigin', 'maxConcurrentCallsPerTool', 'reservedConnectionsPerOrigin', 'maxReservedCallsPerTool'],
          properties: {
            connectionsPerOrigin: positiveInt,
            maxConcurrentCallsPerTool: positiveInt,
            reservedConnectionsPerOrigin: positiveInt,
            maxReservedCallsPerTool: positiveInt,
          },
        },
      },
    },
    auth: {
      type: 'object',
      additionalProperties: false,
      required: [
        'audience',
        'authorizationServers',
        'algorithms',
        'clockSkewSeconds',
        'tokenTypes',
        'maxTokenAgeSeconds',
        'jwksRefetchCooldownMillis',
        'scopesSupported',
        'toolPolicies',
        'identityHeaders',
        'maxCachedTokens',
      ],
      properties: {
        audience: httpUrl,
        authorizationServers: {
          type: 'array',
          minItems: 1,
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['issuer', 'jwksUri'],
            properties: { issuer: httpUrl, jwksUri: httpUrl },
          },
        },
        algorithms: { type: 'array', minItems: 1, items: { enum: ACCEPTED_TOKEN_ALGORITHMS } },
        clockSkewSeconds: { type: 'integer', minimum: 0, maximum: 300 },
        tokenTypes: { type: 'array', minItems: 1, items: { type: 'string', pattern: '^[A-Za-z0-9.+/-]{1,64}$' } },
        maxTokenAgeSeconds: { type: 'integer', minimum: 60, maximum: 31_536_000 },
        jwksRefetchCooldownMillis: { type: 'integer', minimum: 1_000 },
        scopesSupported: scopeList,
        toolPolicies: {
          type: 'array',
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['tools', 'scopes'],
            properties: { tools: toolPattern, scopes: { ...scopeList, minItems: 1 }, discoverable: { type: 'boolean' } },
          },
        },
        identityHeaders: {
          type: 'object',
          propertyNames: { pattern: '^x-[a-z0-9-]{1,62}$' },
          additionalProperties: { type: 'string', minLength: 1, maxLength: 64 },
        },
        maxCachedTokens: positiveInt,
        introspection: {
          type: 'object',
          additionalProperties: false,
          required: ['endpoint', 'clientId', 'clientSecret'],
          properties: { endpoint: httpUrl, clientId: { type: 'string', minLength: 1 }, clientSecret: { type: 'string', minLength: 1 } },
        },
      },
    },
    rateLimits: rateLimitsSection,
    logging: {
      type: 'object',
      additionalProperties: false,
      required: ['level', 'format'],
      properties: {
        level: { enum: ['error', 'warn', 'info', 'debug'] },
        format: { enum: ['kv', 'json'] },
      },
    },
    audit: auditSchema,
    consent: consentSchema,
    // Each entry's fields are checked by interceptor-settings.ts, compiled only when the section is
    // given: a gateway without interceptors compiles and carries nothing of them (issue 46).
    interceptors: { type: 'array', items: { type: 'object' } },
  },
} as const;
