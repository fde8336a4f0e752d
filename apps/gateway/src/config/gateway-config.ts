import type { LogFormat } from '@toolmesh/transport-http/server';

import type { AuditSettings } from './audit-settings';
import type { ConsentSettings, UserAuthorizationSettings } from './consent-settings';
import type { EndpointSettings } from './endpoint-settings';
import type { InterceptorSettings } from './interceptor-settings';
import type { TaskSettings } from './task-settings';

/** A tool service whose manifest the gateway reads (`mcp.bundles`, SPEC G14). */
export interface BundleSettings {
  name: string;
  /** Base URL of the tool service; relative tool endpoints are appended to it. Required except with `mcpServer`. */
  serviceDomain?: string;
  /** Path of the manifest under `serviceDomain` (e.g. `/tool-manifest`). One of this and `manifestFile`. */
  manifestPath?: string;
  /** A manifest read from a file instead (local work, tests). */
  manifestFile?: string;
  /** Local profile: served after the first failed remote fetch, until one succeeds (SPEC G16). */
  fallbackManifestFile?: string;
  namePrefix?: string;
  /** The tool service's OpenAPI document instead of a manifest (issue 27). One of this, `manifestPath` and `manifestFile`. */
  openapi?: OpenApiBundleSettings;
  /** An MCP server whose tools the bundle serves (issue 28). One of this, `manifestPath`, `manifestFile` and `openapi`. */
  mcpServer?: McpServerBundleSettings;
  /**
   * With `auth`: the caller's verified token exchanged (RFC 8693) for one whose audience is this bundle's
   * tool service, sent to it as `Authorization: Bearer` (issue 26). Not with `mcpServer`.
   */
  tokenExchange?: TokenExchangeBundleSettings;
  /**
   * What a changed tool definition of a manifest or MCP server bundle does (issue 46): `accept` serves it
   * (the default), `warn` serves it and says so, `hold` serves the last approved one until an operator approves.
   */
  definitionChanges?: 'accept' | 'warn' | 'hold';
  /** With `auth` and `consent`: calls carry the caller's own token at an outside authorization server, got by consent (issue 48). */
  userAuthorization?: UserAuthorizationSettings;
}

/** The gateway as a confidential client of the authorization server that exchanges callers' tokens. */
export interface TokenExchangeBundleSettings {
  /** The authorization server's token endpoint. */
  tokenUrl: string;
  clientId: string;
  /** Where the client secret is (sent with HTTP Basic, client_secret_basic). */
  clientSecret: CredentialSource;
  /** The tool service's resource indicator (RFC 8707), and/or its logical name (RFC 8693's `audience`): one at least. */
  resource?: string;
  audience?: string;
  /** Space-separated scopes the new token asks for; unset, the authorization server's choice. */
  scope?: string;
}

/** An MCP server as a bundle's source: where it is, which protocol era it speaks, and the headers it needs. */
export interface McpServerBundleSettings {
  /** Its Streamable HTTP endpoint, without credentials. */
  url: string;
  /** `auto` (the default) probes with `server/discover` and falls back to `initialize`; the others are pinned. */
  era?: 'auto' | '2025' | '2026-07-28';
  /** By header name: the environment variable or mounted file holding its value. Never the caller's. */
  headers?: Record<string, CredentialSource>;
  /** An access token from the OAuth client credentials grant, sent as `Authorization: Bearer` (issue 28). */
  oauth?: McpServerOAuthSettings;
}

/** The gateway as an OAuth client of an MCP server's authorization server: its own identity, never the caller's. */
export interface McpServerOAuthSettings {
  /** The authorization server's token endpoint. */
  tokenUrl: string;
  clientId: string;
  /** Where the client secret is (sent with HTTP Basic, client_secret_basic). */
  clientSecret: CredentialSource;
  /** Space-separated scopes to ask for; unset, the authorization server's default. */
  scope?: string;
  /** The resource indicator (RFC 8707) to ask the token for: usually the server's canonical URI. */
  resource?: string;
}

/** An OpenAPI bundle: where its document is, which operations are tools, and the secrets its security schemes need. */
export interface OpenApiBundleSettings {
  /** Absolute URL on the service domain's origin. One of this and `documentFile`. */
  documentUrl?: string;
  documentFile?: string;
  /** operationIds that become tools; a comma-separated string (from one environment variable) is read as a list. */
  operations?: string[] | string;
  /** Tags whose operations become tools. */
  tags?: string[];
  /** Timeout of an operation whose `x-toolmesh-tool` names none. */
  timeoutMillis?: number;
  /** By security scheme name: the environment variable or mounted file holding its secret (a `user:password` for basic). */
  credentials?: Record<string, CredentialSource>;
  /**
   * Headers sent on every call of the bundle's tools, by name: the environment variable or mounted file
   * holding the whole value (`Bearer ghp_...`). For documents that declare no security scheme; never logged.
   */
  headers?: Record<string, CredentialSource>;
  /** Tool names by operationId, for operations whose sanitised operationId is not wanted or collides. */
  names?: Record<string, string>;
  /** `enforce` (the default): a JSON object reply is checked against the derived outputSchema; `none`: no outputSchema, the reply passed as text. */
  outputSchemas?: 'enforce' | 'none';
  /** Largest document read for this bundle; unset, `mcp.catalogue.maxOpenApiDocumentBytes`. */
  maxDocumentBytes?: number;
}

export type CredentialSource = { env: string } | { file: string };

/** An authorization server whose access tokens the gateway accepts (`auth.authorizationServers`). */
export interface AuthorizationServerSettings {
  /** The issuer, exactly as its tokens' `iss` and its metadata name it. */
  issuer: string;
  /** Where its signing keys are published (its metadata's `jwks_uri`). */
  jwksUri: string;
}

/** The gateway as an OAuth 2.1 protected resource (SPEC G27); docs/gateway.md tells how it fits together. */
export interface AuthSettings {
  /** The endpoint's canonical URI (RFC 8707), as clients reach it: every token must name it as its audience. */
  audience: string;
  /** The issuer allowlist, with each issuer's keys. */
  authorizationServers: AuthorizationServerSettings[];
  /** Signature algorithms accepted; asymmetric ones only. */
  algorithms: string[];
  /** Tolerance on `exp`, `nbf` and `iat`, at most 300 s. */
  clockSkewSeconds: number;
  /**
   * The JWT `typ` headers accepted, compared without case and without an `application/` prefix; a token
   * without `typ` counts as `jwt` (RFC 7519 §5.1). RFC 9068's `at+jwt` alone refuses every other kind.
   */
  tokenTypes: string[];
  /** A JWT issued (`iat`) longer ago than this is refused, whatever its `exp`; `iat` is then required (RFC 9068). */
  maxTokenAgeSeconds: number;
  /** Least time between two fetches of an issuer's keys for a token naming a key not seen (`kid`). */
  jwksRefetchCooldownMillis: number;
  /** Scopes announced in the metadata and in the challenge to a caller without a token. */
  scopesSupported: string[];
  /**
   * Operator policy: tools whose name matches `tools` (`*` any characters) need `scopes` too, beside what
   * manifests declare. `discoverable`: they are listed to callers without these scopes, whose call then
   * asks for them (a step-up); unset, false.
   */
  toolPolicies: Array<{ tools: string; scopes: string[]; discoverable?: boolean }>;
  /** Headers sent to tool services, each from one verified claim (`x-user-subject: sub`). */
  identityHeaders: Record<string, string>;
  /** Verified tokens kept in memory until they expire; beyond, the oldest is dropped. */
  maxCachedTokens: number;
  /** RFC 7662 introspection of opaque (non-JWT) tokens, as the gateway's own confidential client; unset: only JWTs. */
  introspection?: { endpoint: string; clientId: string; clientSecret: string };
}

/** One rate limit: `points` calls per `durationSeconds`. */
export interface RateLimitSettings {
  points: number;
  durationSeconds: number;
}

/** Limits on tool calls (SPEC G27); held across replicas in Redis when `mcp.redis.url` is set. */
export interface RateLimitsSettings {
  /** The calls of one caller: its token's subject, or its address when `auth` is off. */
  perCaller?: RateLimitSettings;
  /** The calls of each tool matching `tools` (`*` any characters), from all callers together. */
  perTool: Array<RateLimitSettings & { tools: string }>;
}

/** Everything the gateway can be told; docs/configuration.md describes each field. */
export interface GatewayConfig {
  server: {
    /** Where the MCP port binds. */
    host: string;
    port: number;
    managementPort: number;
    /** Where the management port binds: loopback unless opened on purpose (its endpoints need no token). */
    managementHost: string;
    /** Time to receive a request's headers (slowloris). */
    headersTimeoutMillis: number;
    /** Time to receive a whole request, body included; the gateway's own work is not counted. */
    requestTimeoutMillis: number;
    keepAliveTimeoutMillis: number;
    /** Concurrent connections on the MCP port; 0: no cap. */
    maxConnections: number;
    /** Prometheus metrics at `/metrics` on the management port. */
    metricsEnabled: boolean;
  };
  mcp: {
    endpointPath: string;
    serverInfo: { name: string; title: string; version: string };
    protocol: {
      /** 2026-07-28 and 2025 versions served, side by side on the one endpoint. */
      supportedVersions: string[];
      /** What `initialize` offers a client that asks for a version not served; a 2025 version. */
      preferredVersion: string;
      /** Unset: a missing MCP-Protocol-Version is refused (the seed's contract). */
      assumeVersionWhenMissing?: string;
    };
    maxBodyBytes: number;
    /** Most messages in one JSON-RPC batch (2025-03-26); a longer one is refused whole. */
    maxBatchMembers: number;
    /** Bytes of a batch's responses after which its remaining requests are answered with an error, not run. */
    maxBatchResponseBytes: number;
    /**
     * Calls whose 2025 MCP server asked a 2026-07-28 caller for input, held on this replica for the retry:
     * at most `max` in all and `maxPerBundle` of one bundle; past either, the call is cancelled, not held.
     */
    heldCalls: { max: number; maxPerBundle: number };
    /** Long calls as tasks (issue 47): a declared tool's `202 Accepted` polled, and given to clients as a task. */
    tasks: TaskSettings;
    /**
     * Requests (elicitation, sampling, roots) one call's MCP server may have waiting for our caller's
     * answers at once; past it a request is refused to the server, not relayed.
     */
    maxRelayedRequestsPerCall: number;
    /**
     * 2025 sessions whose `logging/setLevel` this replica keeps for their later calls of MCP servers' tools;
     * past it the one set longest ago is forgotten (its calls then get every message its servers send).
     */
    maxSessionLogLevels: number;
    requestDeadlineMillis: number;
    maxToolTimeoutMillis: number;
    /** The output budget of tools whose manifest names none; unset: their results pass whole. */
    defaultMaxResultChars?: number;
    /** Offer `search_tools`, a ranked search over the catalogue in memory (G30); `tools/list` stays complete. */
    toolSearch: boolean;
    shutdownDrainMillis: number;
    forwardAuthorization: boolean;
    /**
     * Secret that seals the MRTR `requestState` handed to 2026 clients (at least 32 characters). Unset: each
     * process draws its own, and a retry reaching another replica is refused; replicas share one.
     */
    requestStateKey?: string;
    /** How long a sealed `requestState` may come back: a retry after it is refused and starts afresh. */
    requestStateTtlSeconds: number;
    allowedHosts: string[];
    allowedOrigins: string[];
    payloadLoggingEnabled: boolean;
    bundles: BundleSettings[];
    /** Approvals of pinned tool definitions (issue 46): a pin file of hashes, and the token of the approval endpoint. */
    definitionPins?: { pinFile?: string; approvalToken?: CredentialSource };
    /** The portal registry; when `registryUrl` is set it replaces `bundles` as the list of routes. */
    portal: {
      registryUrl?: string;
      refreshTtlMillis: number;
      namePrefix?: string;
    };
    catalogue: {
      /** How long a route's manifests stay fresh before a request starts their refresh. */
      refreshTtlMillis: number;
      maxTools: number;
      maxSerializedBytes: number;
      /** Most tools in one `tools/list` page; a longer list is paged with cursors. */
      toolsListPageSize: number;
      forcedRefreshCooldownMillis: number;
      /** Least time between two refreshes of one bundle asked for on the management port; sooner ones get 429. */
      requestedRefreshIntervalMillis: number;
      manifestTimeoutMillis: number;
      maxManifestBytes: number;
      /** An OpenAPI document over this is refused as it downloads (registry.document_too_large); a bundle may set its own. */
      maxOpenApiDocumentBytes: number;
      /** A YAML document nesting deeper is refused before it is composed (registry.yaml_too_deep). */
      maxYamlDepth: number;
      /** A YAML document with more nodes is refused before it is composed (registry.yaml_too_many_nodes). */
      maxYamlNodes: number;
      /** A tool whose inputSchema and outputSchema hold more JSON values is refused before compiling (registry.schema_too_large). */
      maxSchemaNodes: number;
    };
    routingHints: { refreshTtlMillis: number };
    /** The skills the gateway serves itself (issue 49, SEP-2640); with none configured, no skills method is served. */
    skills: {
      /** Operators' folders in the Agent Skills format: each sub-folder with a SKILL.md is a skill. */
      folders: Array<{ path: string; requiredScopes?: string[] }>;
      /** Tool-service bundles (manifestPath or manifestFile) whose manifest's `skills` are served (docs/manifest-format.md). */
      bundles: string[];
      /** A skill with more files is left out (SEP-2640 §Limits: 512). */
      maxFilesPerSkill: number;
      /** A skill whose files hold more bytes is left out (SEP-2640 §Limits: 16 MiB). */
      maxBytesPerSkill: number;
    };
    /** The change-notification streams of both eras (SPEC G21). */
    notifications: {
      /** Open streams per process (2026 listens and 2025 GET streams together); more are refused with 503. */
      maxOpenStreams: number;
      /** Open streams of one client (remote address); more are refused with 429. */
      maxStreamsPerClient: number;
      /** A stream is ended after this long; the client opens another. */
      maxStreamLifetimeMillis: number;
      /** Interval of the `:` keep-alive comments on an idle stream. */
      keepAliveMillis: number;
    };
    /** The optional shared last-good cache; without `url`, none. */
    redis: {
      url?: string;
      keyPrefix: string;
      portalRegistryKey: string;
      commandTimeoutMillis: number;
      /** Longest wait for one rate-limit command: it is on the path of every limited call. */
      rateLimitTimeoutMillis: number;
      /** After a failed rate-limit command, how long the limits count in memory before Redis is tried again. */
      rateLimitRetryMillis: number;
      /** Most points of one limit a replica reserves at once in Redis (limits/redis-leases.ts); 1: a command per call. */
      rateLimitLeaseMax: number;
    };
    /** Curated endpoints (issue 46): subsets of the catalogue on paths of their own; none by default. */
    endpoints?: EndpointSettings[];
    toolClient: {
      /** Keep-alive connections per tool service origin. */
      connectionsPerOrigin: number;
      /** Calls of one tool in flight at once; more are refused with an isError result. At most `connectionsPerOrigin - reservedConnectionsPerOrigin`. */
      maxConcurrentCallsPerTool: number;
      /** The part of each service's pool that only tools holding fewer than `maxReservedCallsPerTool` calls may use. */
      reservedConnectionsPerOrigin: number;
      maxReservedCallsPerTool: number;
    };
  };
  logging: { level: string; format: LogFormat };
  /** Absent (the default): no authentication, the gateway trusts its network as before. */
  auth?: AuthSettings;
  /** Absent (the default): no rate limits. */
  rateLimits?: RateLimitsSettings;
  /** Absent (the default): no audit trail. */
  audit?: AuditSettings;
  /** The consent flow and vault of bundles with `userAuthorization` (issue 48); absent (the default): none. */
  consent?: ConsentSettings;
  /** Guardrails on tool calls (issue 46; docs/gateway.md, "Interceptors"); absent or empty (the default): none. */
  interceptors?: InterceptorSettings[];
}
