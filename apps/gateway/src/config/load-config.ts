import { readFileSync } from 'node:fs';

import {
  errorMessage,
  expandStrings,
  isModernProtocolVersion,
  MODERN_PROTOCOL_VERSIONS,
  SchemaCompiler,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '@toolmesh/protocol';
import { CONTROLLED_HEADERS } from '@toolmesh/registry';
import { parse as parseYaml } from 'yaml';

import { GatewayError, GatewayErrorCode } from '../errors/gateway-errors';
import { AUDIT_DEFAULTS, auditProblem } from './audit-settings';
import { endpointsProblem } from './check-endpoints';
import { configSchema } from './config-schema';
import { CONSENT_DEFAULTS, consentProblem } from './consent-settings';
import { AUTH_DEFAULTS, defaultConfig } from './defaults';
import { definitionPinsProblem } from './definition-pins-settings';
import type { BundleSettings, GatewayConfig } from './gateway-config';
import { checkInterceptorSettings, knownNames } from './interceptor-settings';
import { withScalarFieldsConverted } from './scalar-fields';

/** The gateway refuses to start on a configuration it cannot use, and says what to fix. */
function configInvalid(message: string): GatewayError {
  return new GatewayError(GatewayErrorCode.ConfigInvalid, message);
}

type EnvKind = 'string' | 'int' | 'bool' | 'list';

/** Environment overrides (docs/configuration.md): variable, config path, value kind. */
export const ENV_OVERRIDES: ReadonlyArray<[string, string, EnvKind]> = [
  ['HOST', 'server.host', 'string'],
  ['PORT', 'server.port', 'int'],
  ['MANAGEMENT_PORT', 'server.managementPort', 'int'],
  ['MANAGEMENT_HOST', 'server.managementHost', 'string'],
  ['MAX_CONNECTIONS', 'server.maxConnections', 'int'],
  ['METRICS_ENABLED', 'server.metricsEnabled', 'bool'],
  ['MCP_ENDPOINT_PATH', 'mcp.endpointPath', 'string'],
  ['MCP_MAX_BODY_BYTES', 'mcp.maxBodyBytes', 'int'],
  ['MCP_MAX_BATCH_MEMBERS', 'mcp.maxBatchMembers', 'int'],
  ['MCP_MAX_BATCH_RESPONSE_BYTES', 'mcp.maxBatchResponseBytes', 'int'],
  ['MCP_REQUEST_DEADLINE_MILLIS', 'mcp.requestDeadlineMillis', 'int'],
  ['MCP_MAX_TOOL_TIMEOUT_MILLIS', 'mcp.maxToolTimeoutMillis', 'int'],
  ['MCP_DEFAULT_MAX_RESULT_CHARS', 'mcp.defaultMaxResultChars', 'int'],
  ['MCP_TOOL_SEARCH', 'mcp.toolSearch', 'bool'],
  ['MCP_SHUTDOWN_DRAIN_MILLIS', 'mcp.shutdownDrainMillis', 'int'],
  ['MCP_FORWARD_AUTHORIZATION', 'mcp.forwardAuthorization', 'bool'],
  ['MCP_REQUEST_STATE_KEY', 'mcp.requestStateKey', 'string'],
  ['MCP_REQUEST_STATE_TTL_SECONDS', 'mcp.requestStateTtlSeconds', 'int'],
  ['MCP_ALLOWED_HOSTS', 'mcp.allowedHosts', 'list'],
  ['MCP_ALLOWED_ORIGINS', 'mcp.allowedOrigins', 'list'],
  ['MCP_PAYLOAD_LOGGING_ENABLED', 'mcp.payloadLoggingEnabled', 'bool'],
  ['MCP_PORTAL_REGISTRY_URL', 'mcp.portal.registryUrl', 'string'],
  ['MCP_PORTAL_REFRESH_TTL_MILLIS', 'mcp.portal.refreshTtlMillis', 'int'],
  ['MCP_CATALOGUE_REFRESH_TTL_MILLIS', 'mcp.catalogue.refreshTtlMillis', 'int'],
  ['MCP_CATALOGUE_MAX_OPENAPI_DOCUMENT_BYTES', 'mcp.catalogue.maxOpenApiDocumentBytes', 'int'],
  ['MCP_ROUTING_HINTS_REFRESH_TTL_MILLIS', 'mcp.routingHints.refreshTtlMillis', 'int'],
  ['REDIS_URL', 'mcp.redis.url', 'string'],
  ['LOG_LEVEL', 'logging.level', 'string'],
  ['LOG_FORMAT', 'logging.format', 'string'],
];

const configDocument = new SchemaCompiler({ strict: true, maxProblems: 20 }).compile(configSchema);

/**
 * Defaults, then the YAML file (when given), then environment variables; the result is validated as a
 * whole. `file` comes from `--config` or `GATEWAY_CONFIG`.
 */
export function loadConfig(options: { file?: string; env: NodeJS.ProcessEnv }): GatewayConfig {
  let config: unknown = defaultConfig(options.env);
  const file = options.file ?? options.env.GATEWAY_CONFIG;
  if (file) config = mergeDeep(config, withScalarFieldsConverted(readYaml(file, options.env), configSchema));
  config = withSectionDefaults(config as Record<string, unknown>);
  for (const [variable, path, kind] of ENV_OVERRIDES) {
    const raw = options.env[variable];
    if (raw !== undefined && raw !== '') setPath(config as Record<string, unknown>, path, convert(variable, raw, kind));
  }
  const shape = configDocument.check(config, 'config');
  if (!shape.ok) {
    const { problems } = shape;
    throw configInvalid(`invalid configuration${file ? ` (${file})` : ''}:\n  ${problems.join('\n  ')}`);
  }
  const valid = config as GatewayConfig;
  checkVersions(valid.mcp.protocol);
  checkBundleNames(valid.mcp.bundles.map((b) => b.name));
  for (const bundle of valid.mcp.bundles) {
    checkBundleSource(bundle);
    checkOpenApiDocumentUrl(bundle);
    checkOpenApiHeaders(bundle);
    checkTokenExchange(bundle, valid.auth !== undefined);
  }
  checkSkillBundles(valid.mcp);
  const audit = auditProblem(valid.audit, valid.auth !== undefined);
  if (audit !== undefined) throw configInvalid(audit);
  checkToolClient(valid.mcp.toolClient);
  checkServerTimeouts(valid.server);
  checkAuth(valid);
  const pins = definitionPinsProblem(valid);
  if (pins !== undefined) throw configInvalid(pins);
  if (valid.interceptors !== undefined) checkInterceptorSettings(valid.interceptors, knownNames(valid));
  const endpoints = endpointsProblem(valid);
  if (endpoints !== undefined) throw configInvalid(endpoints);
  const consent = consentProblem(valid);
  if (consent !== undefined) throw configInvalid(consent);
  return valid;
}

/** The opt-in sections are off when absent; one that is given takes its defaults for what it leaves out. */
function withSectionDefaults(config: Record<string, unknown>): Record<string, unknown> {
  if (isObject(config.auth)) config.auth = mergeDeep(AUTH_DEFAULTS, config.auth);
  if (isObject(config.rateLimits)) config.rateLimits = mergeDeep({ perTool: [] }, config.rateLimits);
  if (isObject(config.audit)) config.audit = mergeDeep(AUDIT_DEFAULTS, config.audit);
  if (isObject(config.consent)) config.consent = mergeDeep(CONSENT_DEFAULTS, config.consent);
  return config;
}

/** The MCP authorization spec forbids passing a client's token upstream: with `auth`, identity goes as verified claims. */
function checkAuth({ auth, mcp }: GatewayConfig): void {
  if (auth === undefined) return;
  if (mcp.forwardAuthorization) {
    throw configInvalid(
      "mcp.forwardAuthorization cannot be used with auth: the caller's token is for the gateway, never for tool services; send verified claims with auth.identityHeaders instead",
    );
  }
  const issuers = auth.authorizationServers.map((server) => server.issuer);
  const duplicate = issuers.find((issuer, i) => issuers.indexOf(issuer) !== i);
  if (duplicate !== undefined) throw configInvalid(`auth.authorizationServers: the issuer ${duplicate} is listed twice`);
  const taken = Object.keys(auth.identityHeaders).find((header) => GATEWAY_SET_HEADERS.includes(header));
  if (taken !== undefined) throw configInvalid(`auth.identityHeaders: ${taken} is a header the gateway sets itself; choose another name`);
}

/**
 * A token exchange (RFC 8693) needs a verified caller token to exchange, so `auth`; without it the caller's
 * token would go as it is (`forwardAuthorization`) or not at all. An MCP server gets the gateway's own token.
 */
function checkTokenExchange({ name, tokenExchange, mcpServer }: BundleSettings, authOn: boolean): void {
  if (tokenExchange === undefined) return;
  if (!authOn) {
    throw configInvalid(
      `mcp.bundles ${name}: tokenExchange needs auth, which verifies the caller's token before it is exchanged (and refuses mcp.forwardAuthorization)`,
    );
  }
  if (mcpServer !== undefined) {
    throw configInvalid(
      `mcp.bundles ${name}: tokenExchange is for tool services; an MCP server gets the gateway's own token with mcpServer.oauth`,
    );
  }
  const tokenUrl = URL.canParse(tokenExchange.tokenUrl) ? new URL(tokenExchange.tokenUrl) : undefined;
  if (tokenUrl === undefined || tokenUrl.username !== '' || tokenUrl.password !== '') {
    throw configInvalid(`mcp.bundles ${name}: tokenExchange.tokenUrl must be a URL without credentials (they go in clientSecret)`);
  }
}

/** `mcp.skills.bundles` names tool-service bundles whose manifests may list skills (docs/manifest-format.md, "Skills"). */
function checkSkillBundles({ skills, bundles }: GatewayConfig['mcp']): void {
  for (const name of skills.bundles) {
    const bundle = bundles.find((each) => each.name === name);
    if (bundle === undefined) throw configInvalid(`mcp.skills.bundles: no bundle is named ${name}; name one of mcp.bundles`);
    if (bundle.manifestPath === undefined && bundle.manifestFile === undefined)
      throw configInvalid(`mcp.skills.bundles: bundle ${name} has no manifest (manifestPath or manifestFile) to list skills in`);
  }
}

/** What the gateway sends tool services of its own (SPEC G11): an identity header must not replace one. */
const GATEWAY_SET_HEADERS = ['x-request-id', 'x-caller-ip', 'x-caller-host'];

/** Node refuses a headers timeout above the request timeout; say so at start, naming both settings. */
function checkServerTimeouts({ headersTimeoutMillis, requestTimeoutMillis }: GatewayConfig['server']): void {
  if (headersTimeoutMillis > requestTimeoutMillis) {
    throw configInvalid(
      `server.headersTimeoutMillis (${headersTimeoutMillis}) must not exceed server.requestTimeoutMillis (${requestTimeoutMillis})`,
    );
  }
}

/** Stuck tools must leave connections to their service's other tools (SPEC G26): a reserve, that one tool cannot fill alone. */
function checkToolClient({
  connectionsPerOrigin,
  maxConcurrentCallsPerTool,
  reservedConnectionsPerOrigin,
  maxReservedCallsPerTool,
}: GatewayConfig['mcp']['toolClient']): void {
  if (reservedConnectionsPerOrigin >= connectionsPerOrigin) {
    throw configInvalid(
      `mcp.toolClient.reservedConnectionsPerOrigin (${reservedConnectionsPerOrigin}) must be below mcp.toolClient.connectionsPerOrigin (${connectionsPerOrigin})`,
    );
  }
  if (maxConcurrentCallsPerTool > connectionsPerOrigin - reservedConnectionsPerOrigin) {
    throw configInvalid(
      `mcp.toolClient.maxConcurrentCallsPerTool (${maxConcurrentCallsPerTool}) must not exceed connectionsPerOrigin less reservedConnectionsPerOrigin (${connectionsPerOrigin - reservedConnectionsPerOrigin})`,
    );
  }
  if (maxReservedCallsPerTool > reservedConnectionsPerOrigin) {
    throw configInvalid(
      `mcp.toolClient.maxReservedCallsPerTool (${maxReservedCallsPerTool}) must not exceed mcp.toolClient.reservedConnectionsPerOrigin (${reservedConnectionsPerOrigin})`,
    );
  }
}

/** The file's strings may take `${VAR}` and `${VAR:-default}` from the environment, as the agent CLI's do. */
function readYaml(file: string, env: NodeJS.ProcessEnv): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    throw configInvalid(`cannot read the configuration file ${file}; check the path given to --config or GATEWAY_CONFIG`);
  }
  let document: unknown;
  try {
    document = parseYaml(text) ?? {};
  } catch (error) {
    throw configInvalid(`the configuration file ${file} is not valid YAML: ${errorMessage(error)}`);
  }
  return expandStrings(document, env, '', (message) => configInvalid(`invalid configuration (${file}): ${message}`));
}

/** Both eras' versions, 2026 first: what `mcp.protocol.supportedVersions` may name. */
const KNOWN_VERSIONS = [...MODERN_PROTOCOL_VERSIONS, ...SUPPORTED_PROTOCOL_VERSIONS];

function checkVersions(protocol: GatewayConfig['mcp']['protocol']): void {
  const unknown = protocol.supportedVersions.filter((v) => !KNOWN_VERSIONS.includes(v));
  if (unknown.length > 0) {
    throw configInvalid(
      `mcp.protocol.supportedVersions: unknown MCP version(s) ${unknown.join(', ')}; known: ${KNOWN_VERSIONS.join(', ')}`,
    );
  }
  // initialize negotiates among the 2025 versions only; the 2026 era has no initialize.
  const legacy = protocol.supportedVersions.filter((v) => !isModernProtocolVersion(v));
  if (legacy.length > 0 && !legacy.includes(protocol.preferredVersion)) {
    throw configInvalid(
      `mcp.protocol.preferredVersion ${protocol.preferredVersion} must be one of the 2025 versions in mcp.protocol.supportedVersions (${legacy.join(', ')})`,
    );
  }
  if (protocol.assumeVersionWhenMissing !== undefined && !legacy.includes(protocol.assumeVersionWhenMissing)) {
    throw configInvalid('mcp.protocol.assumeVersionWhenMissing must be one of the 2025 versions in mcp.protocol.supportedVersions');
  }
}

/**
 * A tool service's bundle needs its `serviceDomain`; an MCP server's (issue 28) is called at its own URL,
 * which carries no credentials (they go in `headers`, or come from `oauth`, never both for one header),
 * and has no manifest to fall back on.
 */
function checkBundleSource({ name, serviceDomain, mcpServer, fallbackManifestFile }: BundleSettings): void {
  if (mcpServer === undefined) {
    if (serviceDomain === undefined) throw configInvalid(`mcp.bundles ${name}: serviceDomain is required`);
    return;
  }
  if (serviceDomain !== undefined || fallbackManifestFile !== undefined) {
    throw configInvalid(`mcp.bundles ${name}: serviceDomain and fallbackManifestFile are not used with mcpServer; remove them`);
  }
  const url = URL.canParse(mcpServer.url) ? new URL(mcpServer.url) : undefined;
  if (url === undefined) throw configInvalid(`mcp.bundles ${name}: mcpServer.url is not a valid URL`);
  if (url.username !== '' || url.password !== '') {
    throw configInvalid(`mcp.bundles ${name}: mcpServer.url must not carry credentials; name them in mcpServer.headers`);
  }
  if (mcpServer.oauth !== undefined && Object.keys(mcpServer.headers ?? {}).some((header) => header.toLowerCase() === 'authorization')) {
    throw configInvalid(`mcp.bundles ${name}: mcpServer.oauth and mcpServer.headers.Authorization would both set the token; keep one`);
  }
}

/** An OpenAPI document is read from the tool service itself (issue 27): its URL must be on the service domain's origin. */
function checkOpenApiDocumentUrl({ name, serviceDomain = '', openapi }: BundleSettings): void {
  const url = openapi?.documentUrl;
  if (url === undefined) return;
  if (!URL.canParse(url) || !URL.canParse(serviceDomain) || new URL(url).origin !== new URL(serviceDomain).origin) {
    throw configInvalid(`mcp.bundles ${name}: openapi.documentUrl must be a URL on the origin of serviceDomain (${serviceDomain})`);
  }
}

/** A bundle's own headers (issue 45) never say where a call goes or how it is framed: those are the gateway's. */
function checkOpenApiHeaders({ name, openapi }: BundleSettings): void {
  const controlled = Object.keys(openapi?.headers ?? {}).find((header) => CONTROLLED_HEADERS.has(header.toLowerCase()));
  if (controlled !== undefined) {
    throw configInvalid(
      `mcp.bundles ${name}: openapi.headers ${controlled} is a header only the gateway sets (where a call goes or how it is framed)`,
    );
  }
}

function checkBundleNames(names: string[]): void {
  const duplicate = names.find((name, i) => names.indexOf(name) !== i);
  if (duplicate !== undefined) throw configInvalid(`mcp.bundles: the name ${duplicate} is used twice`);
}

function convert(variable: string, raw: string, kind: EnvKind): unknown {
  switch (kind) {
    case 'int': {
      const value = Number(raw);
      if (!Number.isInteger(value)) throw configInvalid(`${variable} must be an integer, got "${raw}"`);
      return value;
    }
    case 'bool':
      if (raw !== 'true' && raw !== 'false') throw configInvalid(`${variable} must be true or false, got "${raw}"`);
      return raw === 'true';
    case 'list':
      return raw
        .split(',')
        .map((item) => item.trim())
        .filter(Boolean);
    default:
      return raw;
  }
}

function setPath(target: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split('.');
  let node = target;
  for (const key of keys.slice(0, -1)) node = node[key] as Record<string, unknown>;
  node[keys[keys.length - 1]] = value;
}

/** Objects merge key by key; arrays and scalars from `override` replace. */
function mergeDeep(base: unknown, override: unknown): unknown {
  if (!isObject(base) || !isObject(override)) return override === undefined ? base : override;
  const merged: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(override)) {
    if (key === '__proto__' || key === 'constructor' || key === 'prototype') continue; // never from a file
    merged[key] = mergeDeep(base[key], value);
  }
  return merged;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
