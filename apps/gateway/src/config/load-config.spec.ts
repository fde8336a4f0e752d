import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { GatewayError } from '../errors/gateway-errors';
import { defaultConfig } from './defaults';
import { loadConfig } from './load-config';

const dir = mkdtempSync(path.join(tmpdir(), 'gateway-config-'));
function yamlFile(text: string): string {
  const file = path.join(dir, `${Math.random().toString(36).slice(2)}.yaml`);
  writeFileSync(file, text);
  return file;
}

describe('loadConfig', () => {
  it('works with no file and no environment: the local profile', () => {
    expect(loadConfig({ env: {} })).toEqual(defaultConfig());
  });

  it('applies the file over the defaults, then the environment over the file', () => {
    const file = yamlFile(`
server:
  port: 7000
mcp:
  endpointPath: /tools/mcp
  allowedOrigins: [https://agents.example.com]
  bundles:
    - name: core
      serviceDomain: http://core.internal:8080
      manifestPath: /tool-manifest
      namePrefix: core_
`);
    const config = loadConfig({
      file,
      env: { PORT: '7100', MCP_FORWARD_AUTHORIZATION: 'true', MCP_ALLOWED_HOSTS: 'gw.internal, localhost' },
    });
    expect(config.server).toMatchObject({ host: '127.0.0.1', port: 7100, managementPort: 9090 });
    expect(config.mcp.endpointPath).toBe('/tools/mcp');
    expect(config.mcp.forwardAuthorization).toBe(true);
    expect(config.mcp.allowedHosts).toEqual(['gw.internal', 'localhost']);
    expect(config.mcp.allowedOrigins).toEqual(['https://agents.example.com']);
    expect(config.mcp.bundles).toEqual([
      { name: 'core', serviceDomain: 'http://core.internal:8080', manifestPath: '/tool-manifest', namePrefix: 'core_' },
    ]);
    expect(config.mcp.maxBodyBytes).toBe(defaultConfig().mcp.maxBodyBytes);
  });

  it('keeps the management port on loopback when HOST opens the MCP port, until MANAGEMENT_HOST opens it too (issue 43)', () => {
    expect(loadConfig({ env: { HOST: '0.0.0.0' } }).server).toMatchObject({ host: '0.0.0.0', managementHost: '127.0.0.1' });
    expect(loadConfig({ env: { HOST: '0.0.0.0', MANAGEMENT_HOST: '0.0.0.0' } }).server.managementHost).toBe('0.0.0.0');
  });

  it('reads GATEWAY_CONFIG when no file is given', () => {
    expect(loadConfig({ env: { GATEWAY_CONFIG: yamlFile('mcp: { maxBodyBytes: 4096 }') } }).mcp.maxBodyBytes).toBe(4096);
  });

  it.each([
    ['a typo in a key', 'mcp: { maxBodyByte: 1 }', 'config.mcp.maxBodyByte is not allowed'],
    ['a wrong type', 'mcp: { maxBodyBytes: lots }', 'config.mcp.maxBodyBytes must be integer'],
    [
      'a preferred version that is not supported',
      'mcp: { protocol: { supportedVersions: [2025-06-18], preferredVersion: 2025-11-25 } }',
      'preferredVersion 2025-11-25 must be one of',
    ],
    [
      'an unknown MCP version',
      'mcp: { protocol: { supportedVersions: [1999-01-01], preferredVersion: 1999-01-01 } }',
      'unknown MCP version(s) 1999-01-01',
    ],
    [
      'a bundle with two manifest sources',
      'mcp: { bundles: [{ name: a, serviceDomain: "http://a", manifestPath: /m, manifestFile: m.json }] }',
      'must match exactly one schema',
    ],
    [
      'duplicate bundle names',
      'mcp: { bundles: [{ name: a, serviceDomain: "http://a", manifestPath: /m }, { name: a, serviceDomain: "http://b", manifestPath: /m }] }',
      'the name a is used twice',
    ],
    [
      'a tool service bundle without its serviceDomain',
      'mcp: { bundles: [{ name: a, manifestPath: /m }] }',
      'mcp.bundles a: serviceDomain is required',
    ],
    [
      'an MCP server bundle with a serviceDomain',
      'mcp: { bundles: [{ name: a, serviceDomain: "http://a", mcpServer: { url: "http://a/mcp" } }] }',
      'serviceDomain and fallbackManifestFile are not used with mcpServer',
    ],
    [
      'an MCP server URL carrying credentials',
      'mcp: { bundles: [{ name: a, mcpServer: { url: "http://user:secret@a/mcp" } }] }',
      'mcpServer.url must not carry credentials; name them in mcpServer.headers',
    ],
    [
      'an MCP server bundle with both OAuth and an Authorization header',
      'mcp: { bundles: [{ name: a, mcpServer: { url: "http://a/mcp", headers: { authorization: { env: T } }, oauth: { tokenUrl: "http://as/token", clientId: c, clientSecret: { env: S } } } }] }',
      'mcpServer.oauth and mcpServer.headers.Authorization would both set the token; keep one',
    ],
    [
      "an OpenAPI bundle's header that only the gateway sets",
      'mcp: { bundles: [{ name: a, serviceDomain: "http://a", openapi: { documentFile: d.json, headers: { Host: { env: H } } } }] }',
      'mcp.bundles a: openapi.headers Host is a header only the gateway sets',
    ],
    [
      'an MCP server OAuth client secret given as a literal value',
      'mcp: { bundles: [{ name: a, mcpServer: { url: "http://a/mcp", oauth: { tokenUrl: "http://as/token", clientId: c, clientSecret: s3cret } } }] }',
      'config.mcp.bundles.0.mcpServer.oauth.clientSecret must be object',
    ],
    [
      'an unknown MCP server era',
      'mcp: { bundles: [{ name: a, mcpServer: { url: "http://a/mcp", era: "2024" } }] }',
      'era must be equal to one of',
    ],
    [
      'an MCP server header given as a literal value',
      'mcp: { bundles: [{ name: a, mcpServer: { url: "http://a/mcp", headers: { Authorization: "Bearer x" } } }] }',
      'config.mcp.bundles.0.mcpServer.headers.Authorization must be object',
    ],
    ['broken YAML', 'mcp: [unclosed', 'is not valid YAML'],
    [
      'a headers timeout above the request timeout',
      'server: { headersTimeoutMillis: 40000, requestTimeoutMillis: 30000 }',
      'server.headersTimeoutMillis (40000) must not exceed server.requestTimeoutMillis (30000)',
    ],
    ['a negative connection cap', 'server: { maxConnections: -1 }', 'config.server.maxConnections must be >= 0'],
    [
      'a per-tool cap reaching into the reserve',
      'mcp: { toolClient: { maxConcurrentCallsPerTool: 100 } }',
      'maxConcurrentCallsPerTool (100) must not exceed connectionsPerOrigin less reservedConnectionsPerOrigin (96)',
    ],
    [
      'a reserve as large as the pool',
      'mcp: { toolClient: { connectionsPerOrigin: 32, maxConcurrentCallsPerTool: 1 } }',
      'reservedConnectionsPerOrigin (32) must be below mcp.toolClient.connectionsPerOrigin (32)',
    ],
    [
      'more reserved calls per tool than the reserve',
      'mcp: { toolClient: { maxReservedCallsPerTool: 40 } }',
      'maxReservedCallsPerTool (40) must not exceed mcp.toolClient.reservedConnectionsPerOrigin (32)',
    ],
  ])('refuses %s, saying what to fix', (_, text, message) => {
    expect(() => loadConfig({ file: yamlFile(text), env: {} })).toThrow(
      expect.objectContaining({ code: 'gateway.config_invalid', message: expect.stringContaining(message) }),
    );
  });

  it('reads an MCP server bundle (issue 28), its URL from the environment', () => {
    const file = yamlFile(
      'mcp: { bundles: [{ name: up, namePrefix: up_, mcpServer: { url: "${UPSTREAM_URL}", era: "2025", headers: { Authorization: { env: UP_TOKEN } } } }] }',
    );
    expect(loadConfig({ file, env: { UPSTREAM_URL: 'http://mcp.internal:3001/mcp' } }).mcp.bundles).toEqual([
      {
        name: 'up',
        namePrefix: 'up_',
        mcpServer: { url: 'http://mcp.internal:3001/mcp', era: '2025', headers: { Authorization: { env: 'UP_TOKEN' } } },
      },
    ]);
  });

  it('refuses bad environment values and missing files', () => {
    expect(() => loadConfig({ env: { PORT: 'eighty' } })).toThrow('PORT must be an integer, got "eighty"');
    expect(() => loadConfig({ env: { MCP_FORWARD_AUTHORIZATION: 'yes' } })).toThrow('must be true or false');
    expect(() => loadConfig({ env: { PORT: '70000' } })).toThrow('config.server.port must be <= 65535');
    expect(loadConfig({ env: { MAX_CONNECTIONS: '500' } }).server.maxConnections).toBe(500);
    expect(() => loadConfig({ file: path.join(dir, 'missing.yaml'), env: {} })).toThrow(GatewayError);
  });

  it('takes the portal registry, Redis and the TTLs from the environment, and refuses unusable locations', () => {
    const config = loadConfig({
      env: {
        MCP_PORTAL_REGISTRY_URL: 'file:./config/local-toolserver-info-sample-v1.json',
        REDIS_URL: 'redis://cache:6379',
        MCP_CATALOGUE_REFRESH_TTL_MILLIS: '30000',
      },
    });
    expect([config.mcp.portal.registryUrl, config.mcp.redis.url, config.mcp.catalogue.refreshTtlMillis]).toEqual([
      'file:./config/local-toolserver-info-sample-v1.json',
      'redis://cache:6379',
      30_000,
    ]);
    expect(() => loadConfig({ env: { MCP_PORTAL_REGISTRY_URL: 'ftp://portal' } })).toThrow(
      /config\.mcp\.portal\.registryUrl must match pattern/,
    );
    expect(() => loadConfig({ env: { REDIS_URL: 'cache:6379' } })).toThrow(/config\.mcp\.redis\.url must match pattern/);
  });

  it('points the default bundle where nx serve started the sample tool service (TOOL_SERVICE_HOST, TOOL_SERVICE_PORT)', () => {
    const serviceDomain = (env: NodeJS.ProcessEnv) => loadConfig({ env }).mcp.bundles[0].serviceDomain;
    expect(serviceDomain({})).toBe('http://127.0.0.1:8081');
    expect(serviceDomain({ TOOL_SERVICE_PORT: '18081' })).toBe('http://127.0.0.1:18081');
    expect(serviceDomain({ TOOL_SERVICE_HOST: 'tools.local', TOOL_SERVICE_PORT: '9000' })).toBe('http://tools.local:9000');
    expect(serviceDomain({ TOOL_SERVICE_HOST: '0.0.0.0' })).toBe('http://127.0.0.1:8081');
    expect(serviceDomain({ TOOL_SERVICE_HOST: '::' })).toBe('http://[::1]:8081');
    expect(serviceDomain({ TOOL_SERVICE_HOST: 'fd00::5' })).toBe('http://[fd00::5]:8081');
    // A configured bundle list replaces the default one, whatever the sample's variables say.
    expect(
      loadConfig({
        file: yamlFile('mcp: { bundles: [{ name: a, serviceDomain: "http://a:1", manifestPath: /m }] }'),
        env: { TOOL_SERVICE_PORT: '9000' },
      }).mcp.bundles[0].serviceDomain,
    ).toBe('http://a:1');
  });

  it.each([
    ['0', 'TOOL_SERVICE_PORT=0 lets the sample service pick any free port, which the gateway cannot follow'],
    ['eighty', 'TOOL_SERVICE_PORT=eighty is not a TCP port'],
    ['70000', 'TOOL_SERVICE_PORT=70000 is not a TCP port'],
  ])('refuses TOOL_SERVICE_PORT=%s for the default bundle, saying why', (port, message) => {
    expect(() => loadConfig({ env: { TOOL_SERVICE_PORT: port } })).toThrow(
      expect.objectContaining({ code: 'gateway.config_invalid', message: expect.stringContaining(message) }),
    );
    expect(() => loadConfig({ env: { TOOL_SERVICE_HOST: 'a b/c' } })).toThrow(
      'TOOL_SERVICE_HOST must be an IP address or a host name, got "a b/c"',
    );
  });

  it('expands ${VAR} and ${VAR:-default} in the strings of the file from the environment', () => {
    const file = yamlFile(`
mcp:
  bundles:
    - name: core
      serviceDomain: "\${TOOL_SERVICE_URL:-http://127.0.0.1:8081}"
      manifestPath: "\${MANIFEST_PATH}"
  redis: { url: "redis://\${REDIS_HOST}:\${REDIS_PORT:-6379}" }
`);
    const defaults = loadConfig({ file, env: { MANIFEST_PATH: '/tool-manifest', REDIS_HOST: 'cache' } });
    expect(defaults.mcp.bundles[0]).toMatchObject({ serviceDomain: 'http://127.0.0.1:8081', manifestPath: '/tool-manifest' });
    expect(defaults.mcp.redis.url).toBe('redis://cache:6379');
    const set = loadConfig({
      file,
      env: { TOOL_SERVICE_URL: 'http://tools.internal:9000', MANIFEST_PATH: '/m', REDIS_HOST: 'cache', REDIS_PORT: '7000' },
    });
    expect(set.mcp.bundles[0]).toMatchObject({ serviceDomain: 'http://tools.internal:9000', manifestPath: '/m' });
    expect(set.mcp.redis.url).toBe('redis://cache:7000');
  });

  it("takes numbers and booleans from ${VAR} (and Spring's ${VAR:default}) where a field wants one, refusing what is neither", () => {
    const file = yamlFile(
      'server:\n  port: ${LISTEN_PORT}\n  managementPort: ${MANAGEMENT_PORT:9191}\n  metricsEnabled: ${METRICS:-false}\n',
    );
    const config = loadConfig({ file, env: { LISTEN_PORT: '8181' } });
    expect(config.server).toMatchObject({ port: 8181, managementPort: 9191, metricsEnabled: false });
    expect(loadConfig({ file, env: { LISTEN_PORT: '8181', METRICS: 'TRUE' } }).server.metricsEnabled).toBe(true);
    expect(() => loadConfig({ file, env: { LISTEN_PORT: 'eighty' } })).toThrow(
      expect.objectContaining({ code: 'gateway.config_invalid', message: expect.stringMatching(/server\.port.* must be integer/) }),
    );
    // A string field keeps the digits as text.
    const named = yamlFile('mcp: { bundles: [{ name: "${BUNDLE}", serviceDomain: "http://127.0.0.1:1", manifestPath: /m }] }\n');
    expect(loadConfig({ file: named, env: { BUNDLE: '42' } }).mcp.bundles[0].name).toBe('42');
  });

  it('refuses a ${VAR} without a default whose variable is unset, naming the variable, the field and the file', () => {
    const file = yamlFile('mcp:\n  redis: { url: "redis://${REDIS_HOST}:6379" }\n');
    expect(() => loadConfig({ file, env: {} })).toThrow(
      expect.objectContaining({
        code: 'gateway.config_invalid',
        message: `invalid configuration (${file}): mcp.redis.url uses \${REDIS_HOST}, but the environment variable REDIS_HOST is not set; set it, or give a default: \${REDIS_HOST:-value}`,
      }),
    );
  });

  it('takes the request state key from MCP_REQUEST_STATE_KEY and refuses a short one without echoing it', () => {
    const key = 'k'.repeat(32);
    expect(loadConfig({ env: { MCP_REQUEST_STATE_KEY: key } }).mcp.requestStateKey).toBe(key);
    const short = 'short-secret-value';
    expect(() => loadConfig({ env: { MCP_REQUEST_STATE_KEY: short } })).toThrow(/mcp\.requestStateKey/);
    expect(() => loadConfig({ env: { MCP_REQUEST_STATE_KEY: short } })).not.toThrow(new RegExp(short));
  });

  it('ignores prototype keys in the file instead of letting them reach an object prototype', () => {
    const config = loadConfig({ file: yamlFile('__proto__: { polluted: true }\nmcp: { constructor: { x: 1 } }'), env: {} });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(config.mcp.endpointPath).toBe('/mcp');
  });
  describe('auth and rateLimits (SPEC G27)', () => {
    const auth = `
auth:
  audience: https://gateway.example/mcp
  authorizationServers:
    - { issuer: https://login.example/, jwksUri: https://login.example/jwks }
`;

    const exchange = '{ tokenUrl: "http://as/token", clientId: gw, clientSecret: { env: S }, resource: "http://a/" }';

    it('are off unless configured; a section given takes its defaults for what it leaves out', () => {
      expect(loadConfig({ env: {} }).auth).toBeUndefined();
      const config = loadConfig({ file: yamlFile(`${auth}rateLimits: { perCaller: { points: 10, durationSeconds: 1 } }\n`), env: {} });
      expect(config.auth).toMatchObject({
        audience: 'https://gateway.example/mcp',
        algorithms: ['RS256', 'PS256', 'ES256', 'EdDSA'],
        clockSkewSeconds: 30,
      });
      expect(config.rateLimits).toEqual({ perCaller: { points: 10, durationSeconds: 1 }, perTool: [] });
    });

    it("takes a bundle's token exchange with auth", () => {
      const bundles = `mcp: { bundles: [{ name: a, serviceDomain: "http://a", manifestPath: /m, tokenExchange: ${exchange} }] }`;
      expect(loadConfig({ file: yamlFile(`${auth}${bundles}`), env: {} }).mcp.bundles[0].tokenExchange).toEqual({
        tokenUrl: 'http://as/token',
        clientId: 'gw',
        clientSecret: { env: 'S' },
        resource: 'http://a/',
      });
    });

    it.each([
      ['forwardAuthorization with auth', `${auth}mcp: { forwardAuthorization: true }`, 'mcp.forwardAuthorization cannot be used with auth'],
      ['an HMAC algorithm', `${auth}  algorithms: [HS256]`, 'config.auth.algorithms.0 must be equal to one of the allowed values'],
      ['alg none', `${auth}  algorithms: [none]`, 'config.auth.algorithms.0 must be equal to one of the allowed values'],
      ['a clock skew over five minutes', `${auth}  clockSkewSeconds: 3600`, 'config.auth.clockSkewSeconds must be <= 300'],
      [
        'an issuer listed twice',
        `${auth}    - { issuer: https://login.example/, jwksUri: https://login.example/other }`,
        'the issuer https://login.example/ is listed twice',
      ],
      ['an identity header that is not x-', `${auth}  identityHeaders: { authorization: sub }`, 'config.auth.identityHeaders'],
      [
        'an identity header the gateway sends itself',
        `${auth}  identityHeaders: { x-request-id: sub }`,
        'auth.identityHeaders: x-request-id is a header the gateway sets itself',
      ],
      ['a scope that cannot go in a challenge', `${auth}  scopesSupported: ['a"b']`, 'config.auth.scopesSupported.0 must match pattern'],
      [
        'a discoverable flag that is not a boolean',
        `${auth}  toolPolicies: [{ tools: 'customer_*', scopes: [customers:read], discoverable: 'yes' }]`,
        'config.auth.toolPolicies.0.discoverable must be boolean',
      ],
      [
        'a token exchange without auth',
        `mcp: { bundles: [{ name: a, serviceDomain: "http://a", manifestPath: /m, tokenExchange: ${exchange} }] }`,
        'mcp.bundles a: tokenExchange needs auth',
      ],
      [
        'a token exchange toward an MCP server',
        `${auth}mcp: { bundles: [{ name: a, mcpServer: { url: "http://a/mcp" }, tokenExchange: ${exchange} }] }`,
        'mcp.bundles a: tokenExchange is for tool services',
      ],
      [
        'a token exchange for neither a resource nor an audience',
        `${auth}mcp: { bundles: [{ name: a, serviceDomain: "http://a", manifestPath: /m, tokenExchange: { tokenUrl: "http://as/token", clientId: gw, clientSecret: { env: S } } }] }`,
        'config.mcp.bundles.0.tokenExchange must match a schema in anyOf',
      ],
      [
        'a token exchange secret given as a literal value',
        `${auth}mcp: { bundles: [{ name: a, serviceDomain: "http://a", manifestPath: /m, tokenExchange: { tokenUrl: "http://as/token", clientId: gw, clientSecret: s3cret, resource: "http://a/" } }] }`,
        'config.mcp.bundles.0.tokenExchange.clientSecret must be object',
      ],
    ])('refuses %s', (_, text, message) => {
      expect(() => loadConfig({ file: yamlFile(text), env: {} })).toThrow(
        expect.objectContaining({ code: 'gateway.config_invalid', message: expect.stringContaining(message) }),
      );
    });
  });
});
